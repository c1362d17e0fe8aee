/**
 * A hashing thread: reads the content from the shared ring (byte-ring.ts), digests it, posts
 * the digests and ends; an aborted put ends it without results.
 *
 * It runs from source text (`eval`) rather than from a module file: a thread that loads a
 * TypeScript module starts Node's type stripper in its own isolate, about 10 MiB more per
 * thread. So the body below and `ringReader` use nothing but their arguments and Node's
 * built-ins, and the runtime's own type stripping leaves valid JavaScript in their source.
 */
import { ringReader } from './byte-ring.ts';

export interface HashThreadData {
  ring: import('./byte-ring.ts').RingBuffers;
  reader: number;
  /** [name in the results, Node's name for the hash]. */
  algorithms: [string, string][];
}

function hashThread(load: (id: string) => unknown, data: HashThreadData, reader: typeof ringReader): void {
  const { createHash } = load('node:crypto') as typeof import('node:crypto');
  const { parentPort } = load('node:worker_threads') as typeof import('node:worker_threads');
  const hashes = data.algorithms.map(([name, nodeName]) => ({ name, hash: createHash(nodeName) }));
  const outcome = reader(data.ring, data.reader).drain((bytes) => {
    for (const { hash } of hashes) hash.update(bytes);
  });
  if (outcome !== 'ended') return;
  const digests: Record<string, string> = {};
  for (const { name, hash } of hashes) digests[name] = hash.digest('hex');
  parentPort?.postMessage({ digests });
}

/** The thread's program, for `new Worker(HASH_THREAD_SOURCE, { eval: true, workerData })`. */
export const HASH_THREAD_SOURCE = `'use strict';
(${hashThread.toString()})(require, require('node:worker_threads').workerData, ${ringReader.toString()});
`;

/**
 * A hashing thread: reads the content from the shared ring (byte-ring.ts), digests it and
 * scans it as a zip when asked (zip-stream-scan.ts), posts the results and ends; an aborted put
 * ends it without results.
 *
 * It runs from source text (`eval`) rather than from a module file: a thread that loads a
 * TypeScript module starts Node's type stripper in its own isolate, about 10 MiB more per
 * thread. So the body below, `ringReader` and `defineZipStreamScanner` use nothing but their
 * arguments and globals, and the runtime's own type stripping leaves valid JavaScript in their
 * source.
 */
import type { ZipScanOptions } from '../../zip/zip-stream-scan.ts';
import { defineZipStreamScanner } from '../../zip/zip-stream-scan.ts';
import { type RingBuffers, ringReader } from './byte-ring.ts';

export interface HashThreadData {
  ring: RingBuffers;
  reader: number;
  /** [name in the results, Node's name for the hash]. */
  algorithms: [string, string][];
  zipScan?: ZipScanOptions;
}

function hashThread(
  load: (id: string) => unknown,
  data: HashThreadData,
  reader: typeof ringReader,
  defineScanner: typeof defineZipStreamScanner,
): void {
  const { createHash } = load('node:crypto') as typeof import('node:crypto');
  const { crc32 } = load('node:zlib') as typeof import('node:zlib');
  const { parentPort } = load('node:worker_threads') as typeof import('node:worker_threads');
  const hashes = data.algorithms.map(([name, nodeName]) => ({ name, hash: createHash(nodeName) }));
  const Scanner = defineScanner({ createHash, crc32 });
  const scanner = data.zipScan ? new Scanner(data.zipScan) : undefined;
  const outcome = reader(data.ring, data.reader).drain((bytes) => {
    for (const { hash } of hashes) hash.update(bytes);
    scanner?.update(bytes);
  });
  if (outcome !== 'ended') return;
  const digests: Record<string, string> = {};
  for (const { name, hash } of hashes) digests[name] = hash.digest('hex');
  parentPort?.postMessage(scanner ? { digests, zipScan: scanner.result() } : { digests });
}

/** The thread's program, for `new Worker(HASH_THREAD_SOURCE, { eval: true, workerData })`. */
export const HASH_THREAD_SOURCE = `'use strict';
(${hashThread.toString()})(
  require,
  require('node:worker_threads').workerData,
  ${ringReader.toString()},
  ${defineZipStreamScanner.toString()},
);
`;

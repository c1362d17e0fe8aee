/**
 * Hashes the content of a put while it streams. Small contents are hashed on the event loop;
 * for large ones (or of unknown size) each chunk is copied once into a shared ring that a
 * hashing thread reads, so that the sha-512 and the zip scan of a GiB package run on another
 * core than the one receiving it. A few large puts at a time get a thread; more are hashed on
 * the event loop (correct, only slower), which bounds the threads and their memory.
 */
import { Worker } from 'node:worker_threads';
import { NODE_HASH_NAMES } from '../../sol/hash-algorithms.ts';
import { createRing, RingWriter } from './byte-ring.ts';
import { HashJobs, type HashPlan, type HashResults } from './hash-jobs.ts';
import { HASH_THREAD_SOURCE, type HashThreadData } from './hash-thread.ts';

export interface StreamHasher {
  /** Feeds the next chunk; a promise when the hashing threads are behind (wait for it). */
  update(chunk: Buffer): Promise<void> | undefined;
  /** At the end of the content. Rejects when a hashing thread failed. */
  finish(): Promise<HashResults>;
  /** The put failed: stop hashing, no results. */
  abort(): void;
}

export interface HasherOptions {
  /** The content's size when known in advance (Content-Length); small ones stay on the event loop. */
  sizeHint?: number;
}

/** Below this size, threads cost more than they save. */
export const THREAD_THRESHOLD = 16 * 2 ** 20;
/** Puts hashed by threads at the same time; the others hash on the event loop. */
const MAX_THREADED_PUTS = 2;
const RING_BYTES = 4 * 2 ** 20;

let threadedPuts = 0;

export function createStreamHasher(plan: HashPlan, options: HasherOptions = {}): StreamHasher {
  const large = options.sizeHint === undefined || options.sizeHint >= THREAD_THRESHOLD;
  const work = (plan.digests?.length ?? 0) > 0 || plan.zipScan !== undefined;
  const threaded = work && large && threadedPuts < MAX_THREADED_PUTS;
  return threaded ? new ThreadedHasher(plan) : inlineHasher(new HashJobs(plan));
}

function inlineHasher(jobs: HashJobs): StreamHasher {
  return {
    update(chunk) {
      jobs.update(chunk);
      return undefined;
    },
    finish: async () => jobs.results(),
    abort() {},
  };
}

/**
 * The whole plan on one thread: the event loop receives, copies each chunk into the ring and
 * writes it; the thread computes the sha-512 and the zip scan (sha-256 and CRC-32 of the stored
 * entries). That splits a large upload's work about evenly between two cores — and under
 * contention the server's two busy threads get two shares of the CPU, not one. A second
 * thread would cost its isolate's memory (about 12 MiB) for nothing on two cores.
 */
class ThreadedHasher implements StreamHasher {
  readonly #writer: RingWriter;
  readonly #worker: Worker;
  readonly #result: Promise<HashResults>;
  #released = false;

  constructor(plan: HashPlan) {
    threadedPuts++;
    const ring = createRing(RING_BYTES, 1);
    this.#writer = new RingWriter(ring);
    const workerData: HashThreadData = {
      ring,
      reader: 0,
      algorithms: [...new Set(plan.digests ?? [])].map((a) => [a, NODE_HASH_NAMES[a]]),
      ...(plan.zipScan ? { zipScan: plan.zipScan } : {}),
    };
    this.#worker = new Worker(HASH_THREAD_SOURCE, {
      eval: true,
      workerData,
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    this.#worker.unref();
    this.#result = new Promise<HashResults>((resolve, reject) => {
      const fail = (err: Error) => {
        this.#writer.fail(err);
        reject(err);
      };
      this.#worker.once('message', resolve);
      this.#worker.once('error', fail);
      this.#worker.once('exit', (code) => fail(new Error(`the hashing thread stopped (exit code ${code})`)));
    });
    this.#result.catch(() => {}); // observed by finish(); an aborted put never asks
  }

  update(chunk: Buffer): Promise<void> | undefined {
    return this.#writer.write(chunk);
  }

  async finish(): Promise<HashResults> {
    this.#writer.end();
    try {
      return await this.#result;
    } finally {
      this.#release();
    }
  }

  abort(): void {
    this.#writer.abort();
    void this.#worker.terminate();
    this.#release();
  }

  #release(): void {
    if (this.#released) return;
    this.#released = true;
    threadedPuts--;
  }
}

/**
 * What every claimed-job worker runs: the poll loop, at most `concurrency` jobs at once (a job
 * that ends frees its slot and wakes the loop), and a graceful stop that claims nothing more and
 * waits for the jobs in progress. A worker gives only its queue: how to recover what dead
 * processes left, which jobs may be claimed, how to claim one and how to run it.
 */
import type { Logger } from 'pino';
import { PollLoop } from './poll-loop.ts';

export interface JobQueue {
  /** Ends or requeues what dead processes left; runs at every look, before claiming. */
  recover(): Promise<void>;
  /** Ids of up to `limit` jobs that may be claimed now. */
  claimable(limit: number): Promise<string[]>;
  /** Claims job `id` for this process; false when another worker got it first. */
  claim(id: string): Promise<boolean>;
  /** Runs a claimed job; a rejection is logged, the slot freed all the same. */
  run(id: string): Promise<void>;
}

export interface JobRunnerOptions {
  concurrency: number;
  intervalMs: number;
  logger: Logger;
  /** Names the worker in its log lines ("onboarding worker"). */
  name: string;
}

export class JobRunner {
  readonly #queue: JobQueue;
  readonly #options: JobRunnerOptions;
  readonly #running = new Map<string, Promise<void>>();
  readonly #loop: PollLoop;

  constructor(queue: JobQueue, options: JobRunnerOptions) {
    this.#queue = queue;
    this.#options = options;
    this.#loop = new PollLoop({
      tick: () => this.#tick(),
      intervalMs: options.intervalMs,
      logger: options.logger,
      failure: `${options.name} poll failed`,
    });
  }

  start(): void {
    this.#loop.start();
  }

  /** Looks for work now (a job was queued in this process). */
  wake(): void {
    this.#loop.wake();
  }

  /** Whether job `id` runs in this process now. */
  has(id: string): boolean {
    return this.#running.has(id);
  }

  /** True before start() and from stop() on. */
  get stopped(): boolean {
    return this.#loop.stopped;
  }

  /** Stops claiming, and waits for the jobs in progress. */
  async stop(): Promise<void> {
    await this.#loop.stop();
    await Promise.allSettled(this.#running.values());
  }

  async #tick(): Promise<void> {
    await this.#queue.recover();
    const free = this.#options.concurrency - this.#running.size;
    if (free <= 0) return;
    for (const id of await this.#queue.claimable(free)) {
      if (this.#loop.stopped || this.#running.size >= this.#options.concurrency) return;
      if (this.#running.has(id) || !(await this.#queue.claim(id))) continue;
      const job = this.#queue
        .run(id)
        .catch((err) => this.#options.logger.error({ err, job: id }, `${this.#options.name} job crashed`))
        .finally(() => {
          this.#running.delete(id);
          this.wake();
        });
      this.#running.set(id, job);
    }
  }
}

/**
 * The janitor: every periodic sweep (leftover package blobs, orphaned delivery state, and what
 * the next capabilities add) runs on one schedule, worker.sweepIntervalMs, one after the other,
 * once at start and then at every interval. A sweep that fails is logged and the others still
 * run. stop() ends the schedule, aborts the sweep in progress through its signal and waits for
 * it. Sweeps are idempotent, so several replicas may run them.
 */
import type { Logger } from 'pino';
import { PollLoop } from './poll-loop.ts';

export interface Sweep {
  /** Names the sweep in the log ("package blob sweep"). */
  name: string;
  /** Removes what is left over; returns what it removed (logged when not empty). */
  run(signal: AbortSignal): Promise<readonly unknown[] | number>;
}

export class Janitor {
  readonly #sweeps: readonly Sweep[];
  readonly #logger: Logger;
  readonly #abort = new AbortController();
  readonly #loop: PollLoop;

  constructor(sweeps: readonly Sweep[], options: { intervalMs: number; logger: Logger }) {
    this.#sweeps = sweeps;
    this.#logger = options.logger;
    this.#loop = new PollLoop({
      tick: () => this.#sweepAll(),
      intervalMs: options.intervalMs,
      logger: options.logger,
      failure: 'janitor failed',
    });
  }

  get name(): string {
    return 'janitor';
  }

  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    const sweeping = this.#loop.stop();
    this.#abort.abort(new Error('janitor stopped'));
    await sweeping;
  }

  async #sweepAll(): Promise<void> {
    for (const sweep of this.#sweeps) {
      if (this.#loop.stopped) return;
      try {
        const removed = await sweep.run(this.#abort.signal);
        const count = typeof removed === 'number' ? removed : removed.length;
        if (count > 0) this.#logger.info({ sweep: sweep.name, removed }, `${sweep.name} removed leftovers`);
      } catch (err) {
        if (this.#abort.signal.aborted) return;
        this.#logger.error({ err, sweep: sweep.name }, `${sweep.name} failed`);
      }
    }
  }
}

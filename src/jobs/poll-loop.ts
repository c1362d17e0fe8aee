/**
 * The loop every background worker runs (onboarding jobs, LCM op occs, notification delivery):
 * look for work, then again every `intervalMs`, or at once when woken (work was queued in this
 * process, a PostgreSQL NOTIFY arrived, a job finished and freed a slot). One look runs at a
 * time; a wake during a look runs another right after it, so a wake is never lost. A failed look
 * is logged and the loop carries on at the next interval: a database blip must not stop a worker.
 */
import type { Logger } from 'pino';

export interface PollLoopOptions {
  /** One look for work: recover, claim and start what is due. */
  tick: () => Promise<void>;
  intervalMs: number;
  logger: Logger;
  /** Logged with the error when a look fails. */
  failure: string;
}

export class PollLoop {
  readonly #options: PollLoopOptions;
  #stopped = true;
  #timer: NodeJS.Timeout | undefined;
  #ticking: Promise<void> | undefined;
  #again = false;

  constructor(options: PollLoopOptions) {
    this.#options = options;
  }

  /** True before start() and from stop() on: the worker must not claim anything new. */
  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    this.#stopped = false;
    this.wake();
  }

  /** Looks for work now, or right after the look in progress. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#ticking) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#ticking = this.#options
      .tick()
      .catch((err) => this.#options.logger.error({ err }, this.#options.failure))
      .finally(() => {
        this.#ticking = undefined;
        if (this.#stopped) return;
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else {
          this.#timer = setTimeout(() => this.wake(), this.#options.intervalMs);
        }
      });
  }

  /**
   * Stops looking at once (synchronously, before the first await: wakes from then on are
   * ignored) and resolves when the look in progress, if any, has ended. The work it started is
   * the worker's to wait for.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#ticking;
  }
}

/**
 * What runs every background job (onboarding, LCM op occs, notification delivery). A worker is
 * a plain object: its queue (which jobs may be claimed now, claiming one, renewing a claimed
 * job's lease), what to recover from dead processes, and how to run one job. The runner owns the
 * rest: the poll loop, at most `concurrency` jobs at once (a job that ends frees its slot and
 * wakes the loop), each running job's held lease with the signal that aborts when the lease is
 * lost, and the graceful stop: claim nothing more, give the jobs in progress `stopGraceMs`, then
 * abort them and wait for them to end.
 */
import type { Logger } from 'pino';
import { HeldLease } from '../store/queue/lease.ts';
import { queueEvent, reportedRenewal } from '../store/queue/metrics.ts';
import { PollLoop } from './poll-loop.ts';

/** What a running job is told by its runner. */
export interface Job {
  id: string;
  /**
   * Aborts when the job's lease is lost (another process may have the job now) or when the
   * runner stopped and the job outlived the grace period: stop reading and writing.
   */
  signal: AbortSignal;
  /** False once the lease may have run out by this process's clock (a stalled renewal). */
  leaseValid(): boolean;
  /** True once the runner stops: start nothing new, hand the job back at the next boundary. */
  stopping(): boolean;
  /** Look for work at `at` (epoch ms): the job backs off until then. */
  wakeAt(at: number): void;
}

/** Looking for work before the next poll. */
export interface Wake {
  /** Now: work was queued in this process, a NOTIFY arrived. */
  wake(): void;
  /** At `at` (epoch ms): a job backs off until then. */
  wakeAt(at: number): void;
}

export interface Worker {
  /** Names the worker in its log lines ("onboarding worker"). */
  name: string;
  concurrency: number;
  /** How long stop() lets the jobs in progress run before it aborts them. */
  stopGraceMs: number;
  /** Ends or requeues what dead processes left; runs before claiming, at most once a poll interval. */
  recover(): Promise<void>;
  /** Ids of up to `limit` jobs that may be claimed now. */
  claimable(limit: number): Promise<string[]>;
  /** Claims job `id` for this process; false when another worker got it first. */
  claim(id: string): Promise<boolean>;
  /**
   * Claims up to `limit` jobs at once, none of `running` (this process's own), and answers
   * their ids (one statement, store/queue's claimJobs): where a worker has it, the runner uses
   * it instead of claimable and claim.
   */
  claimMany?(limit: number, running: readonly string[]): Promise<string[]>;
  /** Extends the lease of claimed job `id`; false once this process no longer holds it. */
  renew(id: string): Promise<boolean>;
  /** Runs a claimed job; a rejection is logged, the slot freed all the same. */
  run(job: Job): Promise<void>;
  /** The worker's own wake-up sources, started with the runner; returns what closes them. */
  listen?(wake: Wake): () => void | Promise<void>;
}

export interface RunnerOptions {
  /** Looks for work this often when nothing wakes it (worker.pollIntervalMs). */
  intervalMs: number;
  /** Lease length of every claimed job (worker.leaseMs). */
  leaseMs: number;
  logger: Logger;
}

export class JobRunner implements Wake {
  readonly #worker: Worker;
  readonly #options: RunnerOptions;
  readonly #running = new Map<string, Promise<void>>();
  /** Aborts every job when the stop grace runs out. */
  readonly #stopAbort = new AbortController();
  readonly #loop: PollLoop;
  #wakeTimes: number[] = [];
  /** When recover() last ran (epoch ms). */
  #recovered = 0;
  #wakeTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  #close: (() => void | Promise<void>) | undefined;

  constructor(worker: Worker, options: RunnerOptions) {
    this.#worker = worker;
    this.#options = options;
    this.#loop = new PollLoop({
      tick: () => this.#tick(),
      intervalMs: options.intervalMs,
      logger: options.logger,
      failure: `${worker.name} poll failed`,
    });
  }

  get name(): string {
    return this.#worker.name;
  }

  start(): void {
    this.#close = this.#worker.listen?.(this);
    this.#loop.start();
  }

  /** Looks for work now (a job was queued in this process). */
  wake(): void {
    this.#loop.wake();
  }

  /** Looks for work at `at`, and at every other time asked for (one timer, for the earliest). */
  wakeAt(at: number): void {
    if (this.#loop.stopped) return;
    this.#wakeTimes.push(at);
    this.#armWakeTimer();
  }

  #armWakeTimer(): void {
    if (this.#loop.stopped || this.#wakeTimes.length === 0) return;
    const next = Math.min(...this.#wakeTimes);
    if (this.#wakeTimer && this.#wakeTimer.at <= next) return;
    clearTimeout(this.#wakeTimer?.timer);
    const timer = setTimeout(
      () => {
        this.#wakeTimer = undefined;
        const now = Date.now();
        this.#wakeTimes = this.#wakeTimes.filter((t) => t > now);
        this.wake();
        this.#armWakeTimer();
      },
      Math.max(0, next - Date.now()) + 5,
    );
    this.#wakeTimer = { at: next, timer };
  }

  /** Whether job `id` runs in this process now. */
  has(id: string): boolean {
    return this.#running.has(id);
  }

  /** True before start() and from stop() on. */
  get stopped(): boolean {
    return this.#loop.stopped;
  }

  /**
   * Stops claiming at once, closes the worker's wake-ups, lets the jobs in progress run for the
   * worker's grace period, then aborts them, and resolves when every one has ended.
   */
  async stop(): Promise<void> {
    const looking = this.#loop.stop();
    clearTimeout(this.#wakeTimer?.timer);
    this.#wakeTimes = [];
    await this.#close?.();
    await looking;
    const late = setTimeout(
      () => this.#stopAbort.abort(new Error('worker stopped')),
      this.#worker.stopGraceMs,
    );
    await Promise.allSettled(this.#running.values());
    clearTimeout(late);
  }

  async #tick(): Promise<void> {
    const worker = this.#worker;
    // Recovery looks for dead processes' jobs: once a poll interval is enough, whatever the
    // wake-ups (every job that ends wakes the loop).
    if (Date.now() - this.#recovered >= this.#options.intervalMs) {
      this.#recovered = Date.now();
      await worker.recover();
    }
    const free = worker.concurrency - this.#running.size;
    if (free <= 0) return;
    if (worker.claimMany) {
      // Claimed jobs run even if the loop stopped meanwhile: they hand themselves back.
      for (const id of await worker.claimMany(free, [...this.#running.keys()])) {
        queueEvent({ kind: 'claimed', worker: worker.name });
        if (!this.#running.has(id)) this.#running.set(id, this.#run(id));
      }
      return;
    }
    for (const id of await worker.claimable(free)) {
      if (this.#loop.stopped || this.#running.size >= worker.concurrency) return;
      if (this.#running.has(id) || !(await worker.claim(id))) continue;
      queueEvent({ kind: 'claimed', worker: worker.name });
      this.#running.set(id, this.#run(id));
    }
  }

  async #run(id: string): Promise<void> {
    const lease = new HeldLease(this.#options.leaseMs, () =>
      reportedRenewal(this.#worker.name, this.#worker.renew(id)),
    );
    const job: Job = {
      id,
      signal: AbortSignal.any([lease.signal, this.#stopAbort.signal]),
      leaseValid: () => lease.valid,
      stopping: () => this.#loop.stopped,
      wakeAt: (at) => this.wakeAt(at),
    };
    try {
      await this.#worker.run(job);
    } catch (err) {
      this.#options.logger.error({ err, job: id }, `${this.#worker.name} job crashed`);
    } finally {
      lease.stop();
      this.#running.delete(id);
      this.wake();
    }
  }
}

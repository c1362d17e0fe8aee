/**
 * The delivery worker: finds subscriptions with notifications due, leases each to itself (one
 * worker per subscription, across processes), and runs a delivery session per leased
 * subscription — at most notify.concurrency at once, so a slow or failing receiver holds one
 * slot and never delays the others. Polls every worker.pollIntervalMs, wakes at once when this
 * process enqueues (signal.ts), and at the retry time of the subscriptions it put in back-off.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import { OutboundPolicy } from '../net/address-policy.ts';
import { CallbackClient } from '../notify/delivery/callback-client.ts';
import { SubscriptionLease } from '../notify/delivery/lease.ts';
import type { DeliveryMetrics } from '../notify/delivery/metrics.ts';
import {
  claimSubscription,
  dueSubscriptions,
  releaseLease,
  sweepOrphanStates,
} from '../notify/delivery/queue.ts';
import { runSession, type SessionDeps } from '../notify/delivery/session.ts';
import { onDeliveryWake } from '../notify/delivery/signal.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { Database } from '../store/db/database.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import { JobRunner } from './runner.ts';

/** After a wake, look once more this much later: the enqueuing transaction may not have committed yet. */
const WAKE_SETTLE_MS = 50;
/** Calls in flight when the worker stops get this long to finish before they are abandoned. */
const STOP_GRACE_MS = 1000;
const SWEEP_EVERY_MS = 10 * 60 * 1000;

export interface DeliveryWorkerDeps {
  config: Config;
  db: Database;
  box: SealedBox;
  logger: Logger;
  metrics: DeliveryMetrics;
  /** Base of the absolute `_links` hrefs (server.publicUrl, or this server's URL). */
  linkBase: string;
}

export class DeliveryWorker {
  readonly owner = PROCESS_OWNER;
  readonly #deps: DeliveryWorkerDeps;
  readonly #client: CallbackClient;
  readonly #abort = new AbortController();
  readonly #runner: JobRunner;
  #settleTimer: NodeJS.Timeout | undefined;
  #retryTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  #retries: number[] = [];
  #lastSweep = 0;
  #unsubscribe: (() => void) | undefined;

  constructor(deps: DeliveryWorkerDeps) {
    this.#deps = deps;
    this.#client = new CallbackClient(
      OutboundPolicy.fromConfig(deps.config),
      deps.config.notify.requestTimeoutMs,
    );
    const { db, config, logger } = deps;
    this.#runner = new JobRunner(
      {
        recover: () => this.#sweep(),
        claimable: (limit) => dueSubscriptions(db, limit),
        claim: (id) => claimSubscription(db, id, this.owner, config.worker.leaseMs),
        run: (id) =>
          this.#session(id).catch((err) =>
            logger.error({ err, subscriptionId: id }, 'notification delivery session failed'),
          ),
      },
      {
        concurrency: config.notify.concurrency,
        intervalMs: config.worker.pollIntervalMs,
        logger,
        name: 'notification delivery',
      },
    );
  }

  start(): void {
    this.#unsubscribe = onDeliveryWake(() => {
      this.wake();
      this.#settleTimer ??= setTimeout(() => {
        this.#settleTimer = undefined;
        this.wake();
      }, WAKE_SETTLE_MS);
    });
    this.#runner.start();
  }

  /** Looks for work now. */
  wake(): void {
    this.#runner.wake();
  }

  /** Stops claiming; sessions stop after their current call (abandoned after a grace period). */
  async stop(): Promise<void> {
    // Stops claiming now; the sessions in progress are awaited once the timers are cleared.
    const stopping = this.#runner.stop();
    this.#unsubscribe?.();
    clearTimeout(this.#settleTimer);
    clearTimeout(this.#retryTimer?.timer);
    const grace = setTimeout(() => this.#abort.abort(), STOP_GRACE_MS);
    await stopping;
    clearTimeout(grace);
    this.#client.close();
  }

  /** Removes the delivery rows of subscriptions that no longer exist, at most every SWEEP_EVERY_MS. */
  async #sweep(): Promise<void> {
    if (Date.now() - this.#lastSweep <= SWEEP_EVERY_MS) return;
    this.#lastSweep = Date.now();
    await sweepOrphanStates(this.#deps.db);
  }

  async #session(id: string): Promise<void> {
    const { db, config } = this.#deps;
    const lease = new SubscriptionLease(db, id, this.owner, config.worker.leaseMs);
    const deps: SessionDeps = {
      ...this.#deps,
      client: this.#client,
      signal: this.#abort.signal,
      stopping: () => this.#runner.stopped,
    };
    try {
      const { retryAt } = await runSession(deps, id, lease);
      if (retryAt !== undefined) this.#wakeAt(retryAt);
    } finally {
      lease.stop();
      await releaseLease(db, id, this.owner);
    }
  }

  /** Wakes at `at`, and at every other retry time this worker scheduled (earliest first). */
  #wakeAt(at: number): void {
    if (this.#runner.stopped) return;
    this.#retries.push(at);
    this.#armRetryTimer();
  }

  #armRetryTimer(): void {
    if (this.#runner.stopped || this.#retries.length === 0) return;
    const next = Math.min(...this.#retries);
    if (this.#retryTimer && this.#retryTimer.at <= next) return;
    clearTimeout(this.#retryTimer?.timer);
    const timer = setTimeout(
      () => {
        this.#retryTimer = undefined;
        const now = Date.now();
        this.#retries = this.#retries.filter((t) => t > now);
        this.wake();
        this.#armRetryTimer();
      },
      Math.max(0, next - Date.now()) + 5,
    );
    this.#retryTimer = { at: next, timer };
  }
}

/**
 * The delivery worker: finds subscriptions with notifications due, leases each to this process
 * (one worker per subscription, across processes), and runs a delivery session per leased
 * subscription — at most notify.concurrency at once, so a slow or failing receiver holds one
 * slot and never delays the others. Wakes at once when this process enqueues (signal.ts), when
 * another process's enqueue commits (PostgreSQL NOTIFY, pg-wakeup.ts), and at the retry time of
 * the subscriptions it put in back-off. On PostgreSQL a subscription whose session spent its
 * time is handed to the other processes for a moment (HAND_BACK_MS), so busy subscriptions
 * spread over the replicas. Its statements are counted for the metrics.
 */
import { DeliveredRows } from '../notify/delivery/delivered-rows.ts';
import { DeliveryWakeupListener, wakeOtherWorkers } from '../notify/delivery/pg-wakeup.ts';
import { claimSubscription, dueSubscriptions, releaseLease, renewLease } from '../notify/delivery/queue.ts';
import { runSession } from '../notify/delivery/session.ts';
import { onDeliveryWake } from '../notify/delivery/signal.ts';
import { StatementCounter } from '../notify/delivery/statement-counter.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import type { JobDeps } from './deps.ts';
import type { Worker } from './runner.ts';

/** After a wake, look once more this much later: the enqueuing transaction may not have committed yet. */
const WAKE_SETTLE_MS = 50;
/**
 * A subscription whose session spent its time budget is not claimed again by this process for
 * this long (PostgreSQL): the other processes, woken by a NOTIFY, take it meanwhile, so that the
 * subscriptions spread over the worker processes instead of staying with the one that claimed
 * them first. Alone, this process takes it back after the pause.
 */
const HAND_BACK_MS = 50;
/** Calls in flight when the worker stops get this long to finish before they are abandoned. */
const STOP_GRACE_MS = 1000;
const owner = PROCESS_OWNER;

export function deliveryWorker(deps: JobDeps): Worker {
  const { config, logger } = deps;
  const counter = new StatementCounter(() => deps.deliveryMetrics.statement());
  const db = { ...deps.db, kysely: deps.db.kysely.withPlugin(counter) };
  const delivered = new DeliveredRows(db, logger);
  /** Subscriptions this process handed back, and until when it leaves them to the others. */
  const resting = new Map<string, number>();
  const leaseMs = config.worker.leaseMs;
  return {
    name: 'notification delivery',
    concurrency: config.notify.concurrency,
    stopGraceMs: STOP_GRACE_MS,
    recover: async () => {},
    claimable: async (limit) => {
      const now = Date.now();
      for (const [id, until] of resting) if (until <= now) resting.delete(id);
      const due = await dueSubscriptions(db, limit + resting.size);
      return due.filter((id) => !resting.has(id)).slice(0, limit);
    },
    claim: (id) => claimSubscription(db, id, owner, leaseMs),
    renew: (id) => renewLease(db, id, owner, leaseMs),
    run: async (job) => {
      let handBack = false;
      const session = {
        ...deps,
        db,
        delivered,
        client: deps.callbacks,
        metrics: deps.deliveryMetrics,
        signal: job.signal,
        stopping: job.stopping,
      };
      try {
        const result = await runSession(session, job.id, { owner, valid: job.leaseValid });
        if (result.retryAt !== undefined) job.wakeAt(result.retryAt);
        handBack = result.budgetSpent === true && db.dialect === 'postgres';
      } finally {
        await releaseLease(db, job.id, owner);
      }
      if (handBack) {
        resting.set(job.id, Date.now() + HAND_BACK_MS);
        job.wakeAt(Date.now() + HAND_BACK_MS);
        await wakeOtherWorkers(db);
      }
    },
    listen: (wake) => {
      let settle: NodeJS.Timeout | undefined;
      const unsubscribe = onDeliveryWake(() => {
        wake.wake();
        settle ??= setTimeout(() => {
          settle = undefined;
          wake.wake();
        }, WAKE_SETTLE_MS);
      });
      const listener =
        db.dialect === 'postgres'
          ? new DeliveryWakeupListener(config.database.url, () => wake.wake(), logger)
          : undefined;
      listener?.start();
      return async () => {
        unsubscribe();
        clearTimeout(settle);
        await listener?.stop();
        await delivered.close();
      };
    },
  };
}

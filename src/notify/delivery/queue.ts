/**
 * The delivery queue in the database: which subscriptions have notifications due, their leases
 * (one worker delivers to a subscription at a time, on SQLite and across PostgreSQL replicas),
 * and what each attempt leaves behind. Outbox rows are read per subscription in id order
 * (FIFO); delivered rows are deleted and counted on their subscription's delivery row, many
 * subscriptions' at once (delivered-rows.ts).
 */
import { type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../../store/db/database.ts';
import type { Tables } from '../../store/db/tables.ts';
import { type Executor, inTransaction } from '../../store/db/transaction.ts';
import { claimLease } from '../../store/queue/claim-lease.ts';
import { completeJob } from '../../store/queue/complete.ts';
import { failJob } from '../../store/queue/fail.ts';
import { renewJobLease } from '../../store/queue/heartbeat.ts';
import type { LeaseTable } from '../../store/queue/table.ts';

export interface OutboxRow {
  id: number;
  notificationId: string;
  payload: string;
  attempts: number;
  createdAt: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Subscriptions with pending notifications that nobody leases and that are not waiting for a
 * retry, oldest head first (so that a busy subscription cannot starve the others). Walks the
 * subscriptions, not the outbox: each one's head is one probe of the pending index, where
 * grouping the outbox would read every pending row — tens of thousands during a storm, at
 * every look of every worker.
 */
export async function dueSubscriptions(db: Database, limit: number): Promise<string[]> {
  const now = iso(Date.now());
  const pending = (eb: ExpressionBuilder<Tables & { s: Tables['subscriptions'] }, 's'>) =>
    eb
      .selectFrom('notification_outbox as o')
      .whereRef('o.subscription_id', '=', 's.id')
      .where('o.state', '=', 'pending');
  const rows = await db.kysely
    .selectFrom('subscriptions as s')
    .leftJoin('notification_deliveries as d', 'd.subscription_id', 's.id')
    .select([
      's.id as subscription_id',
      (eb) =>
        pending(eb)
          .select((e) => e.fn.min('o.id').as('m'))
          .as('head'),
    ])
    .where((eb) => eb.exists(pending(eb).select('o.id')))
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .where((eb) => eb.or([eb('d.retry_at', 'is', null), eb('d.retry_at', '<=', now)]))
    .orderBy('head')
    .limit(limit)
    .execute();
  return rows.map((r) => r.subscription_id);
}

/**
 * The delivery queue as store/queue/ sees it: a subscription's delivery row is the lease row of
 * its delivery job, written at the first claim of an existing subscription; a failed attempt
 * backs the subscription off until retry_at.
 */
export const DELIVERY_LEASES: LeaseTable = {
  table: 'notification_deliveries',
  key: 'subscription_id',
  jobs: { table: 'subscriptions', key: 'id' },
  notBefore: 'retry_at',
  versioned: false,
};

/**
 * Leases the subscription to `owner` unless another worker holds a live lease or it waits for
 * a retry; never re-creates the delivery row of a subscription being deleted (claim-lease.ts).
 */
export function claimSubscription(
  db: Database,
  subscriptionId: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  return claimLease(db.kysely, DELIVERY_LEASES, subscriptionId, owner, leaseMs, db.dialect === 'postgres');
}

/** Extends the lease; false when it was lost (expired and taken by another worker). */
export function renewLease(
  db: Database,
  subscriptionId: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  return renewJobLease(db.kysely, DELIVERY_LEASES, subscriptionId, owner, leaseMs);
}

/** The session ended: the lease goes (a no-op when a failure already released it). */
export async function releaseLease(db: Database, subscriptionId: string, owner: string): Promise<void> {
  await completeJob(db.kysely, DELIVERY_LEASES, subscriptionId, owner);
}

/** The next pending notifications of the subscription after row `after`, oldest first. */
export async function nextBatch(
  db: Database,
  subscriptionId: string,
  limit: number,
  after = 0,
): Promise<OutboxRow[]> {
  const rows = await db.kysely
    .selectFrom('notification_outbox')
    .select(['id', 'notification_id', 'payload', 'attempts', 'created_at'])
    .where('state', '=', 'pending')
    .where('subscription_id', '=', subscriptionId)
    .where('id', '>', after)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    notificationId: r.notification_id,
    payload: r.payload,
    attempts: r.attempts,
    createdAt: r.created_at,
  }));
}

// Ids of one DELETE: well under both databases' parameter limits.
const IDS_PER_DELETE = 1000;

/**
 * Removes the delivered rows of several subscriptions and counts them on each one's delivery
 * row, in one transaction: a DELETE per 1,000 rows and one UPDATE for every subscription.
 */
export async function recordDelivered(
  db: Database,
  delivered: ReadonlyMap<string, readonly number[]>,
): Promise<void> {
  const ids = [...delivered.values()].flat();
  if (ids.length === 0) return;
  const now = iso(Date.now());
  const counts = sql<number>`case ${sql.ref('subscription_id')} ${sql.join(
    [...delivered].map(([id, rows]) => sql`when ${id} then ${sql.lit(rows.length)}`),
    sql` `,
  )} else 0 end`;
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < ids.length; i += IDS_PER_DELETE) {
      await trx
        .deleteFrom('notification_outbox')
        .where('id', 'in', ids.slice(i, i + IDS_PER_DELETE))
        .execute();
    }
    await trx
      .updateTable('notification_deliveries')
      .set((eb) => ({ delivered: eb('delivered', '+', counts), last_delivered_at: now }))
      .where('subscription_id', 'in', [...delivered.keys()])
      .execute();
  });
}

export interface FailedAttempt {
  subscriptionId: string;
  /** The worker holding the subscription's lease. */
  owner: string;
  rowId: number;
  error: string;
  /** When to try again; undefined: the notification is dead. */
  retryAt: number | undefined;
}

/**
 * Records a failed attempt: the row's attempt count and error, and either the row's death or the
 * subscription's back-off — its delivery job fails (store/queue's failJob): the lease is
 * released and nothing of it is sent before retryAt (FIFO). False when the row is gone: its
 * subscription was deleted during the attempt, and nothing was recorded.
 */
export async function recordFailure(db: Database, failure: FailedAttempt): Promise<boolean> {
  const now = iso(Date.now());
  const retryAt = failure.retryAt === undefined ? undefined : iso(failure.retryAt);
  return inTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable('notification_outbox')
      .set((eb) => ({
        state: retryAt === undefined ? 'dead' : 'pending',
        next_attempt_at: retryAt ?? now,
        attempts: eb('attempts', '+', 1),
        last_error: failure.error,
      }))
      .where('id', '=', failure.rowId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    const counted = {
      failed_attempts: sql<number>`failed_attempts + 1`,
      last_error: failure.error,
      last_error_at: now,
    };
    if (retryAt === undefined) {
      await trx
        .updateTable('notification_deliveries')
        .set({ ...counted, retry_at: null })
        .where('subscription_id', '=', failure.subscriptionId)
        .execute();
    } else {
      await failJob(trx, DELIVERY_LEASES, failure.subscriptionId, failure.owner, {
        retryAt,
        change: { set: counted },
      });
    }
    return true;
  });
}

/**
 * Removes what is queued for a subscription and its delivery state. Every delete of a
 * subscription (SOL APIs, admin API) calls it in the delete's transaction, after deleting the
 * subscription row (the lock order of claimSubscription: subscription, then delivery row).
 */
export async function deleteQueue(db: Executor, subscriptionId: string): Promise<void> {
  await db.deleteFrom('notification_outbox').where('subscription_id', '=', subscriptionId).execute();
  await db.deleteFrom('notification_deliveries').where('subscription_id', '=', subscriptionId).execute();
}

/** The subscription is gone (deleted meanwhile): its leftover rows go too. */
export async function dropSubscriptionQueue(db: Database, subscriptionId: string): Promise<void> {
  await inTransaction(db, (trx) => deleteQueue(trx, subscriptionId));
}

/**
 * The safety net: delivery rows and queued notifications whose subscription no longer exists
 * (deletes remove them in their transaction; rows left by older versions or written outside
 * Bosun end here — the workers look for due notifications from the subscriptions, so they would
 * never see these).
 */
export async function sweepOrphanStates(db: Database): Promise<number> {
  const now = iso(Date.now());
  const noSubscription = (table: 'notification_deliveries' | 'notification_outbox') =>
    sql<boolean>`not exists (select 1 from subscriptions where subscriptions.id = ${sql.ref(`${table}.subscription_id`)})`;
  const states = await db.kysely
    .deleteFrom('notification_deliveries')
    .where(noSubscription('notification_deliveries'))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  const queued = await db.kysely
    .deleteFrom('notification_outbox')
    .where(noSubscription('notification_outbox'))
    .executeTakeFirst();
  return Number(states.numDeletedRows) + Number(queued.numDeletedRows);
}

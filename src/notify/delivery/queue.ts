/**
 * The delivery queue in the database: which subscriptions have notifications due, their leases
 * (one worker delivers to a subscription at a time, on SQLite and across PostgreSQL replicas),
 * and what each attempt leaves behind. Outbox rows are read per subscription in id order
 * (FIFO); a delivered row is deleted and counted on the subscription's delivery row.
 */
import { sql } from 'kysely';
import type { Database } from '../../store/db/database.ts';
import { type Executor, inTransaction } from '../../store/db/transaction.ts';

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
 * retry, oldest head first (so that a busy subscription cannot starve the others).
 */
export async function dueSubscriptions(db: Database, limit: number): Promise<string[]> {
  const now = iso(Date.now());
  const rows = await db.kysely
    .selectFrom((eb) =>
      eb
        .selectFrom('notification_outbox')
        .select(['subscription_id', (e) => e.fn.min('id').as('head')])
        .where('state', '=', 'pending')
        .groupBy('subscription_id')
        .as('h'),
    )
    .leftJoin('notification_deliveries as d', 'd.subscription_id', 'h.subscription_id')
    .select('h.subscription_id')
    .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
    .where((eb) => eb.or([eb('d.retry_at', 'is', null), eb('d.retry_at', '<=', now)]))
    .orderBy('h.head')
    .limit(limit)
    .execute();
  return rows.map((r) => r.subscription_id);
}

/**
 * Leases the subscription to `owner` unless another worker holds a live lease or it waits for
 * a retry. One statement: on PostgreSQL the conflicting row is locked and the condition
 * re-checked, so two workers can never both win. The row is written only for a subscription
 * that exists, so a claim racing the subscription's delete never re-creates its delivery state:
 * on PostgreSQL the key-share lock waits for a delete in progress and then sees it (SQLite's
 * writers are serial, so the statement sees the delete or comes before it).
 */
export async function claimSubscription(
  db: Database,
  subscriptionId: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const now = Date.now();
  const until = iso(now + leaseMs);
  let existing = db.kysely
    .selectFrom('subscriptions')
    .select((eb) => ['id', eb.val(owner).as('lease_owner'), eb.val(until).as('lease_until')])
    .where('id', '=', subscriptionId);
  if (db.dialect === 'postgres') existing = existing.forKeyShare();
  const row = await db.kysely
    .insertInto('notification_deliveries')
    .columns(['subscription_id', 'lease_owner', 'lease_until'])
    .expression(existing)
    .onConflict((oc) =>
      oc
        .column('subscription_id')
        .doUpdateSet({ lease_owner: owner, lease_until: until })
        .where((eb) =>
          eb.and([
            eb.or([
              eb('notification_deliveries.lease_until', 'is', null),
              eb('notification_deliveries.lease_until', '<', iso(now)),
            ]),
            eb.or([
              eb('notification_deliveries.retry_at', 'is', null),
              eb('notification_deliveries.retry_at', '<=', iso(now)),
            ]),
          ]),
        ),
    )
    .returning('subscription_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Extends the lease; false when it was lost (expired and taken by another worker). */
export async function renewLease(
  db: Database,
  subscriptionId: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const result = await db.kysely
    .updateTable('notification_deliveries')
    .set({ lease_until: iso(Date.now() + leaseMs) })
    .where('subscription_id', '=', subscriptionId)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseLease(db: Database, subscriptionId: string, owner: string): Promise<void> {
  await db.kysely
    .updateTable('notification_deliveries')
    .set({ lease_owner: null, lease_until: null })
    .where('subscription_id', '=', subscriptionId)
    .where('lease_owner', '=', owner)
    .execute();
}

/** The next pending notifications of the subscription, oldest first. */
export async function nextBatch(db: Database, subscriptionId: string, limit: number): Promise<OutboxRow[]> {
  const rows = await db.kysely
    .selectFrom('notification_outbox')
    .select(['id', 'notification_id', 'payload', 'attempts', 'created_at'])
    .where('state', '=', 'pending')
    .where('subscription_id', '=', subscriptionId)
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

/** Removes the delivered rows and counts them, in one transaction. */
export async function recordDelivered(db: Database, subscriptionId: string, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const now = iso(Date.now());
  await inTransaction(db, async (trx) => {
    await trx
      .deleteFrom('notification_outbox')
      .where('subscription_id', '=', subscriptionId)
      .where('id', 'in', ids)
      .execute();
    await trx
      .updateTable('notification_deliveries')
      .set((eb) => ({ delivered: eb('delivered', '+', ids.length), last_delivered_at: now }))
      .where('subscription_id', '=', subscriptionId)
      .execute();
  });
}

export interface FailedAttempt {
  subscriptionId: string;
  rowId: number;
  error: string;
  /** When to try again; undefined: the notification is dead. */
  retryAt: number | undefined;
}

/**
 * Records a failed attempt: the row's attempt count and error, and either the subscription's
 * back-off (nothing of it is sent before retryAt: FIFO) or the row's death. False when the row
 * is gone: its subscription was deleted during the attempt, and nothing was recorded.
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
    await trx
      .updateTable('notification_deliveries')
      .set((eb) => ({
        failed_attempts: eb('failed_attempts', '+', 1),
        last_error: failure.error,
        last_error_at: now,
        retry_at: retryAt ?? null,
      }))
      .where('subscription_id', '=', failure.subscriptionId)
      .execute();
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
 * The safety net: delivery rows whose subscription no longer exists (deletes remove them in
 * their transaction; rows left by older versions or written outside Bosun end here).
 */
export async function sweepOrphanStates(db: Database): Promise<number> {
  const now = iso(Date.now());
  const result = await db.kysely
    .deleteFrom('notification_deliveries')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('subscriptions')
            .select(sql.lit(1).as('one'))
            .whereRef('subscriptions.id', '=', 'notification_deliveries.subscription_id'),
        ),
      ),
    )
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

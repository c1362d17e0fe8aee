/**
 * Delivery state per subscription, for the admin API, the CLI and metrics: counters kept on the
 * delivery row (delivered, failed attempts, last error, last delivery) plus what the outbox
 * holds (pending, failing = pending that failed at least once, dead). Also the two operator
 * actions: redeliver (dead → pending) and delete (the subscription and everything queued for it).
 */
import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../store/db/database.ts';
import type { Tables } from '../../store/db/tables.ts';
import type { Executor } from '../../store/db/transaction.ts';
import { inTransaction } from '../../store/db/transaction.ts';
import { notifyDeliveryWorkers } from './pg-wakeup.ts';
import { deleteQueue } from './queue.ts';
import { wakeDelivery } from './signal.ts';

export interface DeliveryStatus {
  delivered: number;
  pending: number;
  failing: number;
  dead: number;
  failedAttempts: number;
  lastError?: string;
  lastErrorAt?: string;
  lastDeliveredAt?: string;
  /** Set while the subscription waits to retry its oldest pending notification. */
  nextAttemptAt?: string;
}

export interface SubscriptionStatus {
  id: string;
  api: string;
  major: string;
  projectId: string;
  callbackUri: string;
  createdAt: string;
  delivery: DeliveryStatus;
}

type Eb = ExpressionBuilder<Tables & { s: Tables['subscriptions'] }, 's'>;

const count = (eb: Eb, where: (q: ExpressionBuilder<Tables, 'notification_outbox'>) => unknown) =>
  eb
    .selectFrom('notification_outbox')
    .select((e) => e.fn.countAll<number | string>().as('n'))
    .whereRef('notification_outbox.subscription_id', '=', 's.id')
    // biome-ignore lint/suspicious/noExplicitAny: the condition is built by the caller
    .where(where as any);

/** Subscriptions with their delivery state, for the list engine (key column `id`). */
export function statusQuery(db: Executor) {
  return db
    .selectFrom('subscriptions as s')
    .leftJoin('notification_deliveries as d', 'd.subscription_id', 's.id')
    .select((eb) => [
      's.id as id',
      's.api as api',
      's.major as major',
      's.project_id as project_id',
      's.callback_uri as callback_uri',
      's.created_at as created_at',
      'd.delivered as delivered',
      'd.failed_attempts as failed_attempts',
      'd.last_error as last_error',
      'd.last_error_at as last_error_at',
      'd.last_delivered_at as last_delivered_at',
      'd.retry_at as retry_at',
      count(eb as Eb, (q) => q('state', '=', 'pending')).as('pending'),
      count(eb as Eb, (q) => q.and([q('state', '=', 'pending'), q('attempts', '>', 0)])).as('failing'),
      count(eb as Eb, (q) => q('state', '=', 'dead')).as('dead'),
    ]);
}

export type StatusRow = Awaited<ReturnType<ReturnType<typeof statusQuery>['executeTakeFirstOrThrow']>>;

export function toStatus(row: StatusRow): SubscriptionStatus {
  const pending = Number(row.pending ?? 0);
  const retryAt =
    row.retry_at && pending > 0 && row.retry_at > new Date().toISOString() ? row.retry_at : undefined;
  return {
    id: row.id,
    api: row.api,
    major: row.major,
    projectId: row.project_id,
    callbackUri: row.callback_uri,
    createdAt: row.created_at,
    delivery: {
      delivered: Number(row.delivered ?? 0),
      pending,
      failing: Number(row.failing ?? 0),
      dead: Number(row.dead ?? 0),
      failedAttempts: Number(row.failed_attempts ?? 0),
      ...(row.last_error ? { lastError: row.last_error, lastErrorAt: row.last_error_at ?? undefined } : {}),
      ...(row.last_delivered_at ? { lastDeliveredAt: row.last_delivered_at } : {}),
      ...(retryAt ? { nextAttemptAt: retryAt } : {}),
    },
  };
}

export async function subscriptionStatus(db: Executor, id: string): Promise<SubscriptionStatus | undefined> {
  const row = await statusQuery(db).where('s.id', '=', id).executeTakeFirst();
  return row ? toStatus(row) : undefined;
}

export interface QueueDepth {
  subscriptionId: string;
  api: string;
  pending: number;
  dead: number;
}

/** Pending and dead notifications per subscription (metrics). */
export async function queueDepths(db: Database): Promise<QueueDepth[]> {
  const rows = await db.kysely
    .selectFrom('notification_outbox')
    .select(['subscription_id', 'api', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['subscription_id', 'api', 'state'])
    .execute();
  const bySubscription = new Map<string, QueueDepth>();
  for (const row of rows) {
    let depth = bySubscription.get(row.subscription_id);
    if (!depth) {
      depth = { subscriptionId: row.subscription_id, api: row.api, pending: 0, dead: 0 };
      bySubscription.set(row.subscription_id, depth);
    }
    if (row.state === 'pending') depth.pending += Number(row.n);
    else if (row.state === 'dead') depth.dead += Number(row.n);
  }
  return [...bySubscription.values()];
}

/** Turns the subscription's dead notifications back to pending, to be sent again at once, in order. */
export async function redeliver(db: Database, id: string): Promise<number> {
  const now = new Date().toISOString();
  const count = await inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable('notification_outbox')
      .set({ state: 'pending', attempts: 0, next_attempt_at: now, last_error: null })
      .where('subscription_id', '=', id)
      .where('state', '=', 'dead')
      .executeTakeFirst();
    await trx
      .updateTable('notification_deliveries')
      .set({ retry_at: null })
      .where('subscription_id', '=', id)
      .execute();
    await notifyDeliveryWorkers(trx);
    return Number(result.numUpdatedRows);
  });
  wakeDelivery();
  return count;
}

/** Deletes the subscription, its queued notifications and its delivery state; false if absent. */
export async function deleteWithQueue(db: Database, id: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
    await deleteQueue(trx, id);
    return Number(result.numDeletedRows) === 1;
  });
}

/** The stored, sealed authentication of a subscription (for the admin callback test). */
export async function sealedAuthentication(db: Executor, id: string): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('subscriptions')
    .select('authentication')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.authentication;
}

/**
 * The notifications still queued for one subscription (pending or dead), one row each, for the
 * admin API: an operator sees which notifications died and why before redelivering them. The
 * payload stays in the outbox; the row says what it is (type, id) and how delivery went.
 */
import type { Executor } from '../../store/db/transaction.ts';

export interface QueuedNotification {
  /** The outbox row's id: the delivery order. */
  seq: string;
  notificationId: string;
  notificationType: string;
  state: 'pending' | 'dead';
  attempts: number;
  createdAt: string;
  /** When a pending one is tried next. */
  nextAttemptAt?: string;
  lastError?: string;
}

/** A subscription's queued notifications, for the list engine (key column `id`, FIFO order). */
export function queuedQuery(db: Executor, subscriptionId: string) {
  return db
    .selectFrom('notification_outbox')
    .select([
      'id',
      'notification_id',
      'notification_type',
      'state',
      'attempts',
      'created_at',
      'next_attempt_at',
      'last_error',
    ])
    .where('subscription_id', '=', subscriptionId);
}

export type QueuedRow = Awaited<ReturnType<ReturnType<typeof queuedQuery>['executeTakeFirstOrThrow']>>;

export function toQueued(row: QueuedRow): QueuedNotification {
  const state = row.state === 'dead' ? 'dead' : 'pending';
  return {
    seq: String(row.id),
    notificationId: row.notification_id,
    notificationType: row.notification_type,
    state,
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    ...(state === 'pending' ? { nextAttemptAt: row.next_attempt_at } : {}),
    ...(row.last_error ? { lastError: row.last_error } : {}),
  };
}

/**
 * The transactional outbox: the code that changes a resource calls `enqueueNotification` with
 * its transaction; one row per matching subscription of the project is inserted there, so the
 * notifications commit (or roll back) with the change. Delivery (issue 5) drains the rows per
 * subscription in id order.
 */
import type { Executor } from '../store/db/transaction.ts';

/** A notification about to be sent, before it is addressed to a subscription. */
export interface PendingNotification {
  notificationType: string;
  /** Whether a subscription with this (parsed) filter wants it. */
  matches(filter: unknown): boolean;
  /** The notification for one subscription: its stable `id`, subscriptionId and links filled in. */
  build(subscription: { id: string; major: string }): { id: string; notificationType: string };
}

export interface EnqueueRequest {
  /** The project that owns the resource: only its subscriptions are notified. */
  project: string;
  api: string;
  notification: PendingNotification;
}

/** Inserts one outbox row per matching subscription, in `trx`; returns how many. */
export async function enqueueNotification(trx: Executor, request: EnqueueRequest): Promise<number> {
  const subscriptions = await trx
    .selectFrom('subscriptions')
    .select(['id', 'major', 'filter'])
    .where('api', '=', request.api)
    .where('project_id', '=', request.project)
    .orderBy('id')
    .execute();
  const now = new Date().toISOString();
  const rows = subscriptions
    .filter((s) => request.notification.matches(JSON.parse(s.filter)))
    .map((s) => {
      const payload = request.notification.build({ id: s.id, major: s.major });
      return {
        subscription_id: s.id,
        notification_id: payload.id,
        api: request.api,
        major: s.major,
        notification_type: payload.notificationType,
        payload: JSON.stringify(payload),
        created_at: now,
        next_attempt_at: now,
        last_error: null,
      };
    });
  if (rows.length) await trx.insertInto('notification_outbox').values(rows).execute();
  return rows.length;
}

/**
 * The transactional outbox: the code that changes a resource calls `enqueueNotification` with
 * its transaction; one row per matching subscription of the project is inserted there, so the
 * notifications commit (or roll back) with the change. Delivery (issue 5) drains the rows per
 * subscription in id order.
 */
import type { Executor } from '../store/db/transaction.ts';
import { wakeDelivery } from './delivery/signal.ts';

/** The subscription a notification is addressed to: what its representation depends on. */
export interface SubscriptionTarget {
  id: string;
  major: string;
  /** LCM v2 subscriptions: FULL or SHORT notifications. */
  verbosity?: string;
}

/** A notification about to be sent, before it is addressed to a subscription. */
export interface PendingNotification {
  notificationType: string;
  /** Whether a subscription with this (parsed) filter wants it. */
  matches(filter: unknown): boolean;
  /** The notification for one subscription: its stable `id`, subscriptionId and links filled in. */
  build(subscription: SubscriptionTarget): { id: string; notificationType: string };
}

export interface EnqueueRequest {
  /** The project that owns the resource: only its subscriptions are notified. */
  project: string;
  api: string;
  /** Only the subscriptions of these API majors (default: every major of the API). */
  majors?: readonly string[];
  notification: PendingNotification;
}

/** Inserts one outbox row per matching subscription, in `trx`; returns how many. */
export async function enqueueNotification(trx: Executor, request: EnqueueRequest): Promise<number> {
  let query = trx
    .selectFrom('subscriptions')
    .select(['id', 'major', 'filter', 'verbosity'])
    .where('api', '=', request.api)
    .where('project_id', '=', request.project);
  if (request.majors) {
    if (request.majors.length === 0) return 0;
    query = query.where('major', 'in', request.majors);
  }
  const subscriptions = (await query.orderBy('id').execute()).map((s) => ({
    target: { id: s.id, major: s.major, ...(s.verbosity ? { verbosity: s.verbosity } : {}) },
    filter: s.filter,
  }));
  const now = new Date().toISOString();
  const rows = subscriptions
    .filter((s) => request.notification.matches(JSON.parse(s.filter)))
    .map(({ target: s }) => {
      const payload = request.notification.build(s);
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
  if (rows.length) {
    await trx.insertInto('notification_outbox').values(rows).execute();
    // The delivery workers of this process look at once (and again once the transaction is likely committed).
    wakeDelivery();
  }
  return rows.length;
}

/**
 * The transactional outbox: the code that changes a resource calls `enqueueNotification` with
 * its transaction; one row per matching subscription of the project is inserted there, so the
 * notifications commit (or roll back) with the change. Delivery (issue 5) drains the rows per
 * subscription in id order.
 */
import type { Executor } from '../store/db/transaction.ts';
import { notifyDeliveryWorkers } from './delivery/pg-wakeup.ts';
import { wakeDelivery } from './delivery/signal.ts';
import { insertOutboxRows, type OutboxInsert } from './outbox-insert.ts';

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

interface Subscriber {
  target: SubscriptionTarget;
  filter: unknown;
}

/** The subscriptions a request may reach, in id order (their filters parsed once). */
async function subscribers(trx: Executor, request: EnqueueRequest): Promise<Subscriber[]> {
  if (request.majors?.length === 0) return [];
  let query = trx
    .selectFrom('subscriptions')
    .select(['id', 'major', 'filter', 'verbosity'])
    .where('api', '=', request.api)
    .where('project_id', '=', request.project);
  if (request.majors) query = query.where('major', 'in', request.majors);
  return (await query.orderBy('id').execute()).map((s) => ({
    target: { id: s.id, major: s.major, ...(s.verbosity ? { verbosity: s.verbosity } : {}) },
    filter: JSON.parse(s.filter),
  }));
}

/** Inserts one outbox row per matching subscription, in `trx`; returns how many. */
export function enqueueNotification(trx: Executor, request: EnqueueRequest): Promise<number> {
  return enqueueNotifications(trx, [request]);
}

/**
 * enqueueNotification for many notifications (a batch of alarms): each project's subscriptions
 * are read once and the rows inserted together, in the order of the requests.
 */
export async function enqueueNotifications(
  trx: Executor,
  requests: readonly EnqueueRequest[],
): Promise<number> {
  const known = new Map<string, Subscriber[]>();
  const now = new Date().toISOString();
  const rows: OutboxInsert[] = [];
  for (const request of requests) {
    const key = JSON.stringify([request.project, request.api, request.majors ?? null]);
    let found = known.get(key);
    if (!found) {
      found = await subscribers(trx, request);
      known.set(key, found);
    }
    for (const { target, filter } of found) {
      if (!request.notification.matches(filter)) continue;
      const payload = request.notification.build(target);
      rows.push({
        subscription_id: target.id,
        notification_id: payload.id,
        api: request.api,
        major: target.major,
        notification_type: payload.notificationType,
        payload: JSON.stringify(payload),
        created_at: now,
        next_attempt_at: now,
      });
    }
  }
  if (rows.length === 0) return 0;
  await insertOutboxRows(trx, rows);
  // The workers of other processes (PostgreSQL) wake when this transaction commits; this
  // process's look at once, and again once the transaction is likely committed.
  await notifyDeliveryWorkers(trx);
  wakeDelivery();
  return rows.length;
}

/**
 * The subscriber of the cluster fault tests: a real HTTP callback server on loopback, subscribed
 * to every LCM notification through the load balancer, and the check that each op occ's
 * notifications arrived, each event once. Delivery is at least once (a worker that dies between
 * the subscriber's answer and the outbox row's removal sends it again), so a notification is
 * known by its `id`, which a redelivery keeps: the same id twice is a redelivery a subscriber
 * drops, two ids for one event would be an event recorded twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Receiver, startReceiver } from '../notify/delivery/support.ts';
import type { LoadReport } from './load.ts';

export interface Subscriber {
  receiver: Receiver;
  close(): Promise<void>;
}

export async function subscribe(url: string): Promise<Subscriber> {
  const receiver = await startReceiver();
  const res = await fetch(`${url}/vnflcm/v2/subscriptions`, {
    method: 'POST',
    headers: { Version: '2.0.0', 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUri: `${receiver.url}/lcm` }),
  });
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
  return { receiver, close: () => receiver.close() };
}

interface Note {
  id: string;
  notificationType: string;
  vnfLcmOpOccId?: string;
  operationState?: string;
}

export interface NotificationCheck {
  received: number;
  distinct: number;
  /** Deliveries of an id already received. */
  redelivered: number;
  /** Op occs whose STARTING or final-state notification never came. */
  missing: string[];
  /** Events (op occ, state) notified under two different ids. */
  doubled: string[];
}

/**
 * Waits (up to `timeoutMs`) until every op occ the clients ended has its STARTING and final-state
 * notifications, then checks them.
 */
export async function checkNotifications(
  sub: Subscriber,
  report: LoadReport,
  timeoutMs = 30_000,
): Promise<NotificationCheck> {
  const notes = () => sub.receiver.notifications().map((n) => n.body as unknown as Note);
  const wanted = [...report.opOccs].flatMap(([id, op]) => [`${id} STARTING`, `${id} ${op.state}`]);
  const events = () => {
    const byEvent = new Map<string, Set<string>>();
    for (const n of notes()) {
      if (n.notificationType !== 'VnfLcmOperationOccurrenceNotification') continue;
      const key = `${n.vnfLcmOpOccId} ${n.operationState}`;
      byEvent.set(key, (byEvent.get(key) ?? new Set()).add(n.id));
    }
    return byEvent;
  };
  const until = Date.now() + timeoutMs;
  while (Date.now() < until && wanted.some((w) => !events().has(w))) await sleep(200);
  const all = notes();
  const byEvent = events();
  const ids = new Set(all.map((n) => n.id));
  // A retried op occ enters PROCESSING and FAILED_TEMP again, each time a new event; STARTING and
  // the final state once.
  const once = (key: string) => / (STARTING|COMPLETED|FAILED|ROLLED_BACK)$/.test(key);
  return {
    received: all.length,
    distinct: ids.size,
    redelivered: all.length - ids.size,
    missing: wanted.filter((w) => !byEvent.has(w)),
    doubled: [...byEvent].filter(([key, set]) => once(key) && set.size > 1).map(([key]) => key),
  };
}

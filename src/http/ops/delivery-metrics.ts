/**
 * Notification delivery metrics, in the server's registry: attempts by API and outcome, retries,
 * callback call duration, delivery latency (produced → delivered), and — computed from the
 * database at scrape time, so every replica reports the same truth — the queue depth (pending)
 * and dead notifications per subscription.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AttemptOutcome, DeliveryMetrics } from '../../notify/delivery/metrics.ts';
import { type QueueDepth, queueDepths } from '../../notify/delivery/status.ts';
import type { Database } from '../../store/db/database.ts';

export function registerDeliveryMetrics(registry: Registry, db: Database): DeliveryMetrics {
  const registers = [registry];
  // Both gauges come from one query per scrape.
  let depths: { at: number; value: Promise<QueueDepth[]> } | undefined;
  const currentDepths = () => {
    if (!depths || Date.now() - depths.at > 500)
      depths = { at: Date.now(), value: queueDepths(db).catch(() => []) };
    return depths.value;
  };
  const attempts = new Counter({
    name: 'bosun_notification_deliveries_total',
    help: 'Notification delivery attempts, by API and outcome (delivered, failed: will be retried, dead: given up)',
    labelNames: ['api', 'outcome'] as const,
    registers,
  });
  const retries = new Counter({
    name: 'bosun_notification_retries_total',
    help: 'Notification delivery attempts that were retries of a failed one, by API',
    labelNames: ['api'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'bosun_notification_callback_duration_seconds',
    help: 'Duration of the POST to a callback (any outcome), by API',
    labelNames: ['api'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers,
  });
  const latency = new Histogram({
    name: 'bosun_notification_delivery_latency_seconds',
    help: 'Time from a notification being produced to its delivery, by API',
    labelNames: ['api'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 300, 3600],
    registers,
  });
  const statements = new Counter({
    name: 'bosun_notification_delivery_statements_total',
    help: 'Database statements run by the notification delivery worker (claims, reads, deletes, failures; not BEGIN/COMMIT)',
    registers,
  });
  new Gauge({
    name: 'bosun_notification_queue_depth',
    help: 'Notifications waiting for delivery, per subscription',
    labelNames: ['api', 'subscription'] as const,
    registers,
    async collect() {
      this.reset();
      for (const q of await currentDepths())
        if (q.pending > 0) this.labels(q.api, q.subscriptionId).set(q.pending);
    },
  });
  new Gauge({
    name: 'bosun_notification_dead',
    help: 'Notifications given up on (dead), per subscription; POST /bosun/v1/subscriptions/{id}/redeliver retries them',
    labelNames: ['api', 'subscription'] as const,
    registers,
    async collect() {
      this.reset();
      for (const q of await currentDepths()) if (q.dead > 0) this.labels(q.api, q.subscriptionId).set(q.dead);
    },
  });
  // Label children cached per series: prom-client otherwise hashes the label set on every call.
  const cache = new Map<string, unknown>();
  const child = <T>(key: string, make: () => T): T => {
    let found = cache.get(key) as T | undefined;
    if (!found) {
      found = make();
      cache.set(key, found);
    }
    return found;
  };
  return {
    attempt(api: string, outcome: AttemptOutcome, seconds: number, retry: boolean) {
      child(`a ${api} ${outcome}`, () => attempts.labels(api, outcome)).inc();
      if (retry) child(`r ${api}`, () => retries.labels(api)).inc();
      child(`d ${api}`, () => duration.labels(api)).observe(seconds);
    },
    delivered(api: string, seconds: number) {
      child(`l ${api}`, () => latency.labels(api)).observe(seconds);
    },
    statement() {
      statements.inc();
    },
  };
}

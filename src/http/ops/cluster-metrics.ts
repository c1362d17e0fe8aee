/**
 * The cluster's metrics, in the server's registry: which replica this is (an info gauge naming
 * its role, version, id and host), what its workers did with the job queues (claims, lease
 * renewals by outcome, take-overs of abandoned jobs), the database pool's waits (PostgreSQL), and
 * — read from the database at scrape time, one aggregate per queue, so that every replica reports
 * the same truth — each queue's depth and the age of its oldest pending job, and how many
 * registered replicas of each role are alive.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../store/db/database.ts';
import { onPoolWait, poolWaiting } from '../../store/db/pool-metrics.ts';
import { onQueueEvent } from '../../store/queue/metrics.ts';
import { listReplicas, type ReplicaIdentity } from '../../store/replicas/registry.ts';
import { type QueueStatus, queueStatuses } from './cluster-status.ts';

/** A scrape reads each queue once, whichever gauge asks first; reads within this reuse it. */
const SCRAPE_REUSE_MS = 500;

/** Registers the metrics; returns what stops counting this process's events into them. */
export function registerClusterMetrics(
  registry: Registry,
  db: Database,
  replica: ReplicaIdentity,
): () => void {
  const registers = [registry];
  new Gauge({
    name: 'bosun_replica_info',
    help: 'This replica: its role (all, api, worker), Bosun version, replica id (its lease-owner id) and host; always 1',
    labelNames: ['role', 'version', 'replica_id', 'hostname'] as const,
    registers,
  })
    .labels(replica.role, replica.version, replica.id, replica.hostname)
    .set(1);

  const claimed = new Counter({
    name: 'bosun_jobs_claimed_total',
    help: 'Jobs this replica claimed, by worker (onboarding worker, LCM runner, notification delivery)',
    labelNames: ['worker'] as const,
    registers,
  });
  const renewals = new Counter({
    name: 'bosun_lease_renewals_total',
    help: 'Lease renewals of the jobs this replica runs, by worker and outcome (renewed; lost: the job was taken; failed: the database did not answer)',
    labelNames: ['worker', 'outcome'] as const,
    registers,
  });
  const takeOvers = new Counter({
    name: 'bosun_job_takeovers_total',
    help: 'Abandoned jobs (their worker stopped renewing its lease) this replica took over, by queue table',
    labelNames: ['queue'] as const,
    registers,
  });
  const unlistenQueues = onQueueEvent((event) => {
    if (event.kind === 'claimed') claimed.labels(event.worker).inc();
    else if (event.kind === 'renewal') renewals.labels(event.worker, event.outcome).inc();
    else takeOvers.labels(event.queue).inc();
  });

  let read: { at: number; value: Promise<QueueStatus[]> } | undefined;
  const backlog = () => {
    if (!read || Date.now() - read.at > SCRAPE_REUSE_MS)
      read = { at: Date.now(), value: queueStatuses(db.kysely).catch(() => []) };
    return read.value;
  };
  new Gauge({
    name: 'bosun_queue_depth',
    help: 'Jobs waiting to be claimed, per queue (onboarding, lcm-v1, lcm-v2, notifications); read from the database',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      for (const q of await backlog()) this.labels(q.queue).set(q.pending);
    },
  });
  new Gauge({
    name: 'bosun_queue_oldest_age_seconds',
    help: 'How long the oldest waiting job of each queue has waited (0 when none waits); read from the database',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      this.reset();
      for (const q of await backlog()) this.labels(q.queue).set(q.oldestAgeSeconds);
    },
  });
  new Gauge({
    name: 'bosun_cluster_replicas',
    help: 'Replicas in the registry, by role and state (alive: seen within 15 s; stale: not seen since)',
    labelNames: ['role', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      const replicas = await listReplicas(db.kysely).catch(() => []);
      for (const r of replicas) this.labels(r.role, r.alive ? 'alive' : 'stale').inc();
    },
  });

  new Gauge({
    name: 'bosun_db_pool_waiting',
    help: 'Queries of this replica waiting for a free PostgreSQL connection now (always 0 on SQLite)',
    registers,
    collect() {
      this.set(poolWaiting());
    },
  });
  const waits = new Histogram({
    name: 'bosun_db_pool_wait_seconds',
    help: 'Time a query waited to get a PostgreSQL connection from the pool (a free one, or a new one opened); none on SQLite',
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5],
    registers,
  });
  const unlistenPool = onPoolWait((seconds) => waits.observe(seconds));

  return () => {
    unlistenQueues();
    unlistenPool();
  };
}

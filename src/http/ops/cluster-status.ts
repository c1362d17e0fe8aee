/**
 * The cluster at a glance, read from the shared database so that every replica tells the same
 * truth: the replicas registered (alive or stale) and each job queue's backlog — how many jobs
 * wait and how long the oldest has waited. The metrics (cluster-metrics.ts) and the admin status
 * endpoint (routes/admin/status.ts, behind `bosun status`) both read it here.
 */
import { LCM_STORES } from '../../lcm/store.ts';
import { PACKAGE_JOBS } from '../../packages/onboarding.ts';
import type { Executor } from '../../store/db/transaction.ts';
import { type Backlog, backlogOf, type PendingRows } from '../../store/queue/depth.ts';
import { listReplicas, type Replica } from '../../store/replicas/registry.ts';

/** Every job queue by the name its metrics and status carry, and where its pending jobs are. */
export const QUEUES: readonly { queue: string; rows: PendingRows }[] = [
  {
    queue: 'onboarding',
    rows: {
      table: PACKAGE_JOBS.table,
      stateColumn: 'job_state',
      pendingState: 'queued',
      sinceColumn: 'updated_at',
    },
  },
  ...LCM_STORES.map((store) => ({
    queue: `lcm-${store.major}`,
    rows: {
      table: store.opOccs,
      stateColumn: 'job_state',
      pendingState: 'queued',
      sinceColumn: 'updated_at',
    },
  })),
  {
    queue: 'notifications',
    rows: {
      table: 'notification_outbox',
      stateColumn: 'state',
      pendingState: 'pending',
      sinceColumn: 'created_at',
    },
  },
];

export interface QueueStatus extends Backlog {
  queue: string;
  /** How long the oldest pending job has waited, in seconds (0 when none waits). */
  oldestAgeSeconds: number;
}

export interface ClusterStatus {
  /** When the status was read (ISO-8601). */
  at: string;
  replicas: Replica[];
  queues: QueueStatus[];
}

/** Each queue's backlog, one aggregate query per queue. */
export async function queueStatuses(db: Executor, now = Date.now()): Promise<QueueStatus[]> {
  return Promise.all(
    QUEUES.map(async ({ queue, rows }) => {
      const backlog = await backlogOf(db, rows);
      const age = backlog.oldestSince ? Math.max(0, (now - Date.parse(backlog.oldestSince)) / 1000) : 0;
      return { queue, ...backlog, oldestAgeSeconds: age };
    }),
  );
}

export async function clusterStatus(db: Executor): Promise<ClusterStatus> {
  const now = Date.now();
  const [replicas, queues] = await Promise.all([listReplicas(db, now), queueStatuses(db, now)]);
  return { at: new Date(now).toISOString(), replicas, queues };
}

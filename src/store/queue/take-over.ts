/**
 * Jobs whose worker stopped heartbeating (it crashed, was killed, or its machine died), and taking
 * one over for recovery: one conditional UPDATE, so one taker only.
 */
import type { Executor } from '../db/transaction.ts';
import { queueEvent } from './metrics.ts';
import { type JobTable, leaseUntil, nowIso, queueOf } from './table.ts';

export interface AbandonedJob {
  id: string;
  /** The worker that held it. */
  owner: string;
  /** When its lease ran out. */
  leaseUntil: string;
}

/** Jobs in `state` whose lease expired. */
export async function abandonedJobs(
  executor: Executor,
  jobs: JobTable,
  state: string,
): Promise<AbandonedJob[]> {
  const { db, table, key } = queueOf(executor, jobs);
  const rows = await db
    .selectFrom(table)
    .select([key, 'lease_owner', 'lease_until'])
    .where('job_state', '=', state)
    .where('lease_until', '<', nowIso())
    .execute();
  return rows.map((r) => ({ id: r.id, owner: r.lease_owner ?? 'unknown', leaseUntil: r.lease_until ?? '?' }));
}

/** Takes abandoned job `id` (still in `state`) over for `owner`; false when another did first. */
export async function takeOverJob(
  executor: Executor,
  jobs: JobTable,
  id: string,
  state: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const { db, table, key } = queueOf(executor, jobs);
  const result = await db
    .updateTable(table)
    .set({ lease_owner: owner, lease_until: leaseUntil(leaseMs) })
    .where(key, '=', id)
    .where('job_state', '=', state)
    .where('lease_until', '<', nowIso())
    .executeTakeFirst();
  const taken = Number(result.numUpdatedRows) === 1;
  if (taken) queueEvent({ kind: 'take-over', queue: table });
  return taken;
}

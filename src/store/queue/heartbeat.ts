/** Extending a held lease: only its owner can, and only while the job is in a leased state. */
import type { Executor } from '../db/transaction.ts';
import { type JobTable, leaseUntil, queueOf } from './table.ts';

/** False when `owner` no longer holds the lease on job `id`. */
export async function renewJobLease(
  executor: Executor,
  jobs: JobTable,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const { db, table } = queueOf(executor, jobs);
  const result = await db
    .updateTable(table)
    .set({ lease_until: leaseUntil(leaseMs) })
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .where('job_state', 'in', [...jobs.leasedStates])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

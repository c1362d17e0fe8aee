/** Extending a held lease: only its owner can, and only while the job is in a leased state. */
import type { Executor } from '../db/transaction.ts';
import { leaseUntil, type QueueTable, queueOf } from './table.ts';

/** False when `owner` no longer holds the lease on job `id`. */
export async function renewJobLease(
  executor: Executor,
  queue: QueueTable,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const { db, table, key } = queueOf(executor, queue);
  let query = db
    .updateTable(table)
    .set({ lease_until: leaseUntil(leaseMs) })
    .where(key, '=', id)
    .where('lease_owner', '=', owner);
  if (queue.leasedStates) query = query.where('job_state', 'in', [...queue.leasedStates]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

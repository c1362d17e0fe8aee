/**
 * Beginning a job this process runs itself from the start, without it ever being queued (a
 * streamed upload: the request that brings the content is the job): the row enters a leased
 * state held by `owner`, with its own change, only from the state its row's machine expects —
 * so of two requests exactly one begins it.
 */
import { sql } from 'kysely';
import type { Executor } from '../db/transaction.ts';
import type { RowChange } from './release.ts';
import { type JobTable, leaseUntil, nowIso, queueOf } from './table.ts';

/** False when the row is not in `change.from` (another request began first, or it moved on). */
export async function beginJob(
  executor: Executor,
  jobs: JobTable,
  id: string,
  owner: string,
  leaseMs: number,
  state: string,
  change: RowChange,
): Promise<boolean> {
  if (!jobs.leasedStates.includes(state)) throw new Error(`${state} is not a leased state of ${jobs.table}`);
  const { db, table, key } = queueOf(executor, jobs);
  let query = db
    .updateTable(table)
    .set((eb) => ({
      ...change.set,
      job_state: state,
      lease_owner: owner,
      lease_until: leaseUntil(leaseMs),
      attempts: 0,
      ...(jobs.versioned ? { updated_at: nowIso(), version: eb('version', '+', 1) } : {}),
    }))
    .where(key, '=', id);
  const from = change.from;
  if (from) query = query.where(sql.ref(from.column), 'in', [...from.states]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

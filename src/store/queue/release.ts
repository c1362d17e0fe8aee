/**
 * The one fenced UPDATE that ends a worker's hold on a job, for complete.ts and fail.ts: the job
 * columns they choose and the row's own change (its outcome) in one statement, applied only while
 * `owner` holds the lease (a worker that lost it changes nothing) and the row is where its state
 * machine expects it.
 */
import { sql } from 'kysely';
import type { Executor } from '../db/transaction.ts';
import { nowIso, type QueueTable, queueOf } from './table.ts';

/** The row's own side of a job's end. */
export interface RowChange {
  /** Columns of the row written with the job's end: its outcome (final state, result, error). */
  set?: Record<string, unknown>;
  /** Only while the row's `column` holds one of `states` (the row's state machine's guard). */
  from?: { column: string; states: readonly string[] };
}

/** False when `owner` no longer holds job `id`'s lease, or the row is not in `change.from`. */
export async function releaseJob(
  executor: Executor,
  queue: QueueTable,
  id: string,
  owner: string,
  jobColumns: Record<string, unknown>,
  change: RowChange,
): Promise<boolean> {
  const { db, table, key } = queueOf(executor, queue);
  let query = db
    .updateTable(table)
    .set((eb) => ({
      ...jobColumns,
      ...change.set,
      ...(queue.versioned ? { updated_at: nowIso(), version: eb('version', '+', 1) } : {}),
    }))
    .where(key, '=', id)
    .where('lease_owner', '=', owner);
  if (queue.leasedStates) query = query.where('job_state', 'in', [...queue.leasedStates]);
  const from = change.from;
  if (from) query = query.where(sql.ref(from.column), 'in', [...from.states]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

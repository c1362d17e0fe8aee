/**
 * How far a queue is behind: how many jobs wait and since when the oldest has waited, in one
 * aggregate over the queue's pending rows. The state column leads an index on every queue table
 * (`*_jobs` on job_state, `notification_outbox_due` on state), so the query reads the pending
 * rows only, never the whole table: its cost follows the backlog, not the history.
 */
import type { Executor } from '../db/transaction.ts';

/** Where a queue's pending jobs are: the table, the state that means pending, the time it waits since. */
export interface PendingRows {
  table: string;
  stateColumn: string;
  pendingState: string;
  /** The column holding when the row started to wait (ISO-8601 text). */
  sinceColumn: string;
}

export interface Backlog {
  pending: number;
  /** When the oldest pending job started to wait; absent when none waits. */
  oldestSince?: string;
}

interface PendingColumns {
  state: string;
  since: string;
}

export async function backlogOf(db: Executor, rows: PendingRows): Promise<Backlog> {
  // The descriptor's names are the real ones in the SQL; the type only says which columns there are.
  const view = db.withTables<{ pending_rows: PendingColumns }>();
  const table = rows.table as 'pending_rows';
  const state = rows.stateColumn as 'state';
  const since = rows.sinceColumn as 'since';
  const found = await view
    .selectFrom(table)
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.min(since).as('oldest')])
    .where(state, '=', rows.pendingState)
    .executeTakeFirst();
  const pending = Number(found?.n ?? 0);
  const oldest = found?.oldest ?? undefined;
  return pending > 0 && oldest ? { pending, oldestSince: String(oldest) } : { pending };
}

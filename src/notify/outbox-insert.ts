/**
 * Writing outbox rows in bulk. On PostgreSQL a batch is one INSERT … SELECT over one JSON
 * parameter (store/db/json-rows.ts): a storm's 5,000 notifications are one short statement,
 * where multi-row VALUES would bind 40,000 parameters over ten statements. SQLite (in-process, no
 * round trips) takes multi-row VALUES.
 */
import { PostgresAdapter, sql } from 'kysely';
import { type ColumnTypes, jsonRows } from '../store/db/json-rows.ts';
import type { Executor } from '../store/db/transaction.ts';

export interface OutboxInsert {
  subscription_id: string;
  notification_id: string;
  api: string;
  major: string;
  notification_type: string;
  payload: string;
  created_at: string;
  next_attempt_at: string;
}

const TYPES = {
  subscription_id: 'text',
  notification_id: 'text',
  api: 'text',
  major: 'text',
  notification_type: 'text',
  payload: 'text',
  created_at: 'text',
  next_attempt_at: 'text',
} as const satisfies ColumnTypes & Record<keyof OutboxInsert, string>;

// Rows of one multi-row INSERT on SQLite: 8 values each, well under its parameter limit.
const ROWS_PER_VALUES = 500;

/** Inserts the rows in `trx`, their ids ascending in the order given (delivery order). */
export async function insertOutboxRows(trx: Executor, rows: readonly OutboxInsert[]): Promise<void> {
  if (rows.length === 0) return;
  if (trx.getExecutor().adapter instanceof PostgresAdapter) {
    const { columns, select } = jsonRows(TYPES, rows);
    await sql`insert into notification_outbox (${columns}) ${select}`.execute(trx);
    return;
  }
  for (let i = 0; i < rows.length; i += ROWS_PER_VALUES) {
    await trx
      .insertInto('notification_outbox')
      .values(rows.slice(i, i + ROWS_PER_VALUES))
      .execute();
  }
}

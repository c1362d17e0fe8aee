/**
 * The transaction helper: everything `work` does through `trx` commits together or not at all.
 * Services take an `Executor` so the same function runs inside or outside a transaction.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { Tables } from './tables.ts';

export type Executor = Kysely<Tables> | Transaction<Tables>;

export function inTransaction<T>(db: Database, work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute(work);
}

/**
 * The transaction helper: everything `work` does through `trx` commits together or not at all.
 * Services take an `Executor` so the same function runs inside or outside a transaction.
 * `work` runs in a transaction scope: the root handle (`db.kysely`, or a nested inTransaction)
 * fails at once inside it instead of waiting for the connection `trx` holds.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.ts';
import type { Tables } from './tables.ts';
import { runInTransactionScope } from './transaction-scope.ts';

export type Executor = Kysely<Tables> | Transaction<Tables>;

export function inTransaction<T>(db: Database, work: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  return db.kysely.transaction().execute((trx) => runInTransactionScope(() => work(trx)));
}

/**
 * Which transaction, if any, the running code is inside. `inTransaction` runs its callback in a
 * scope; every query on the root handle (`db.kysely`) checks the scope once, when it asks the
 * driver for a connection (queries on the transaction handle never do), and fails at once when
 * a transaction of this async context is still open.
 *
 * Why: on SQLite the process has one connection and the open transaction holds it, so a root
 * query (or a nested `inTransaction`) inside the callback would wait for it forever. On
 * PostgreSQL it runs, but on another pool connection: it does not see the transaction's writes,
 * its own writes survive the transaction's rollback, it waits forever for a row lock the
 * transaction holds, and N such transactions at once exhaust a pool of N. Failing on both keeps
 * the behaviour the same and catches the mistake in PostgreSQL-only code paths too.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface Scope {
  /** False once the callback has settled: work it started and left running is free again. */
  open: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

/** Runs a transaction's callback in a scope that closes when the callback settles. */
export async function runInTransactionScope<T>(work: () => Promise<T>): Promise<T> {
  const scope: Scope = { open: true };
  return scopes.run(scope, async () => {
    try {
      return await work();
    } finally {
      scope.open = false;
    }
  });
}

/**
 * Runs `fn` outside any transaction scope: for background work that a transaction merely
 * triggers (a worker's wake-up) and that must use the root handle on its own, not for the
 * transaction. Its queries wait for the transaction's end on SQLite; they must not be awaited
 * by the transaction.
 */
export function outsideTransaction<T>(fn: () => T): T {
  return scopes.exit(fn);
}

export class RootHandleInTransactionError extends Error {
  constructor() {
    super(
      'the root database handle (db.kysely, or a nested inTransaction) was used inside an ' +
        'inTransaction(db, (trx) => …) callback: use the transaction handle `trx` passed to the ' +
        'callback (on SQLite the transaction holds the only connection, so this would wait forever)',
    );
    this.name = 'RootHandleInTransactionError';
  }
}

/** Called when the root handle asks for a connection: one store lookup, no other work. */
export function assertOutsideTransaction(): void {
  if (scopes.getStore()?.open) throw new RootHandleInTransactionError();
}

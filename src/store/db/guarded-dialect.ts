/**
 * Wraps a Kysely dialect so that the root handle refuses to take a connection inside an open
 * transaction's callback (see transaction-scope.ts). Only `acquireConnection` is checked: the
 * root handle takes a connection per query (and per transaction); a transaction's own queries
 * reuse the connection it holds and never come here.
 *
 * A driver that has a single connection must do its waiting for it inside `acquireConnection`
 * (as NodeSqliteDriver does) and not leave it to Kysely (`supportsMultipleConnections: false`
 * makes Kysely wait on a mutex before it calls the driver, so the check would come too late).
 */
import type { DatabaseConnection, Dialect, Driver } from 'kysely';
import { assertOutsideTransaction } from './transaction-scope.ts';

export function guardRootHandle(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => guardDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

function guardDriver(inner: Driver): Driver {
  const driver: Driver = {
    init: (...args) => inner.init(...args),
    async acquireConnection(...args): Promise<DatabaseConnection> {
      assertOutsideTransaction();
      return inner.acquireConnection(...args);
    },
    beginTransaction: (...args) => inner.beginTransaction(...args),
    commitTransaction: (...args) => inner.commitTransaction(...args),
    rollbackTransaction: (...args) => inner.rollbackTransaction(...args),
    releaseConnection: (...args) => inner.releaseConnection(...args),
    destroy: (...args) => inner.destroy(...args),
  };
  // Kysely tells "no savepoint support" by the method's absence: keep that.
  if (inner.savepoint) driver.savepoint = inner.savepoint.bind(inner);
  if (inner.rollbackToSavepoint) driver.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
  if (inner.releaseSavepoint) driver.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  return driver;
}

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
import { statementMeter } from './statement-meter.ts';
import { assertOutsideTransaction } from './transaction-scope.ts';

export function guardRootHandle(dialect: Dialect): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => guardDriver(dialect.createDriver()),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  };
}

/** Each counted connection's own: the driver is always handed back its own connection. */
const innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
const unwrap = (connection: DatabaseConnection) => innerOf.get(connection) ?? connection;

/** The connection with its statements counted (statement-meter.ts). */
function metered(connection: DatabaseConnection): DatabaseConnection {
  const counted: DatabaseConnection = {
    executeQuery(query) {
      statementMeter.statements++;
      return connection.executeQuery(query);
    },
    streamQuery(query, chunkSize) {
      statementMeter.statements++;
      return connection.streamQuery(query, chunkSize);
    },
  };
  innerOf.set(counted, connection);
  return counted;
}

function guardDriver(inner: Driver): Driver {
  const driver: Driver = {
    init: (...args) => inner.init(...args),
    async acquireConnection(...args): Promise<DatabaseConnection> {
      assertOutsideTransaction();
      return metered(await inner.acquireConnection(...args));
    },
    beginTransaction: (connection, settings) => {
      statementMeter.transactions++;
      statementMeter.statements++;
      return inner.beginTransaction(unwrap(connection), settings);
    },
    commitTransaction: (connection) => {
      statementMeter.statements++;
      return inner.commitTransaction(unwrap(connection));
    },
    rollbackTransaction: (connection) => {
      statementMeter.statements++;
      return inner.rollbackTransaction(unwrap(connection));
    },
    releaseConnection: (connection) => inner.releaseConnection(unwrap(connection)),
    destroy: (...args) => inner.destroy(...args),
  };
  // Kysely tells "no savepoint support" by the method's absence: keep that.
  const { savepoint, rollbackToSavepoint, releaseSavepoint } = inner;
  if (savepoint) driver.savepoint = (c, name, compile) => savepoint.call(inner, unwrap(c), name, compile);
  if (rollbackToSavepoint)
    driver.rollbackToSavepoint = (c, name, compile) =>
      rollbackToSavepoint.call(inner, unwrap(c), name, compile);
  if (releaseSavepoint)
    driver.releaseSavepoint = (c, name, compile) => releaseSavepoint.call(inner, unwrap(c), name, compile);
  return driver;
}

/**
 * Kysely dialect over Node's built-in `node:sqlite` (no native addon to build). Transactions
 * start with BEGIN IMMEDIATE so that a writer waits on busy_timeout instead of failing when
 * another process (the CLI, a second server) holds the write lock.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type TransactionSettings,
} from 'kysely';

type Param = null | number | bigint | string | Uint8Array;

function toParams(parameters: readonly unknown[]): Param[] {
  return parameters.map((p) => {
    if (typeof p === 'boolean') return p ? 1 : 0;
    if (p === undefined) return null;
    return p as Param;
  });
}

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  readonly #cache = new Map<string, StatementSync>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #prepare(sql: string): StatementSync {
    let stmt = this.#cache.get(sql);
    if (!stmt) {
      stmt = this.#db.prepare(sql);
      if (this.#cache.size > 500) this.#cache.clear();
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const stmt = this.#prepare(query.sql);
    const params = toParams(query.parameters);
    if (stmt.columns().length > 0) {
      return { rows: stmt.all(...params) as R[] };
    }
    const { changes, lastInsertRowid } = stmt.run(...params);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const stmt = this.#prepare(query.sql);
    for (const row of stmt.iterate(...toParams(query.parameters))) {
      yield { rows: [row as R] };
    }
  }

  exec(sql: string): void {
    this.#db.exec(sql);
  }
}

class NodeSqliteDriver implements Driver {
  readonly #file: string;
  #db: DatabaseSync | undefined;
  #connection: NodeSqliteConnection | undefined;
  /** Settles when the holder of the one connection releases it. */
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  constructor(file: string) {
    this.#file = file;
  }

  async init(): Promise<void> {
    // The busy timeout first: switching to WAL itself waits for other processes' locks.
    this.#db = new DatabaseSync(this.#file, { timeout: 10000 });
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;');
    this.#connection = new NodeSqliteConnection(this.#db);
  }

  /**
   * One caller at a time holds the connection (one query, or a whole transaction). The waiting
   * is done here rather than by Kysely's mutex so that the root-handle guard (guarded-dialect.ts)
   * runs before it: inside a transaction's callback the wait would never end.
   */
  async acquireConnection(): Promise<DatabaseConnection> {
    while (this.#held) await this.#held;
    this.#held = new Promise((resolve) => {
      this.#release = resolve;
    });
    return this.#connection!;
  }

  async beginTransaction(connection: DatabaseConnection, _settings: TransactionSettings): Promise<void> {
    (connection as NodeSqliteConnection).exec('BEGIN IMMEDIATE');
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as NodeSqliteConnection).exec('COMMIT');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as NodeSqliteConnection).exec('ROLLBACK');
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    this.#db?.close();
    this.#db = undefined;
  }
}

/**
 * SQLite does run DDL inside transactions; saying so makes Kysely's migrator run in one
 * BEGIN IMMEDIATE transaction, which serialises concurrent `db migrate` from several processes.
 * "Multiple connections" only tells Kysely not to add its own mutex: the driver serialises the
 * use of its one connection itself (see acquireConnection).
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

export class NodeSqliteDialect implements Dialect {
  readonly #file: string;
  constructor(file: string) {
    this.#file = file;
  }
  createAdapter() {
    return new TransactionalDdlSqliteAdapter();
  }
  createDriver() {
    return new NodeSqliteDriver(this.#file);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: kysely's introspector takes any schema
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}

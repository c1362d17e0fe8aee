/**
 * Opens the configured database: SQLite through node:sqlite (the embedded default) or
 * PostgreSQL through a pg pool. The rest of Bosun sees one Kysely instance and never branches
 * on the dialect except where SQL truly differs (see `dialect`).
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { guardRootHandle } from './guarded-dialect.ts';
import { NodeSqliteDialect } from './node-sqlite-dialect.ts';
import { measuredPool } from './pool-metrics.ts';
import type { Tables } from './tables.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  /**
   * The root handle. Inside an `inTransaction` callback use the callback's `trx`: a query here
   * would fail at once with RootHandleInTransactionError (transaction-scope.ts).
   */
  kysely: Kysely<Tables>;
  dialect: DialectName;
  /** Resolves when the database answers a trivial query (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  url: string;
  poolSize: number;
  /** How long a query waits for a PostgreSQL connection (a new one, or a free one of the pool). */
  connectTimeoutMs?: number;
}

/**
 * Creates the database file readable by its owner only (it holds sealed secrets, client secret
 * hashes and everything else); SQLite gives its WAL and SHM files the database file's mode.
 * An existing file keeps the mode its operator chose.
 */
function createPrivately(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
}

function openSqlite(url: string): Kysely<Tables> {
  const file = url.slice('sqlite:'.length);
  if (file !== ':memory:') {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    createPrivately(file);
  }
  return new Kysely<Tables>({ dialect: guardRootHandle(new NodeSqliteDialect(file)) });
}

function openPostgres(url: string, poolSize: number, connectTimeoutMs: number): Kysely<Tables> {
  // A connection that does not come in time fails (503 to a client) rather than waiting forever.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    application_name: 'bosun',
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor a checked-out one between two queries (a transaction awaiting other work when the server
  // shuts down): pg emits that on the client, which the pool stops watching while it is out. Its
  // next query fails (an unreachable database, 503) and the pool drops it when it comes back.
  pool.on('connect', (client) => client.on('error', () => {}));
  return new Kysely<Tables>({ dialect: guardRootHandle(new PostgresDialect({ pool: measuredPool(pool) })) });
}

export function openDatabase(options: DatabaseOptions): Database {
  const dialect: DialectName = options.url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  const kysely =
    dialect === 'sqlite'
      ? openSqlite(options.url)
      : openPostgres(options.url, options.poolSize, options.connectTimeoutMs ?? 15000);
  let closed = false;
  return {
    kysely,
    dialect,
    async ping() {
      await sql`select 1`.execute(kysely);
    },
    async close() {
      if (closed) return;
      closed = true;
      await kysely.destroy();
    },
  };
}

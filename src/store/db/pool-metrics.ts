/**
 * The PostgreSQL pool as the metrics see it: how many queries wait for a free connection now
 * (pg's waitingCount, summed over the process's open pools) and how long each connection
 * checkout took (waiting for a free one, or opening a new one). Kysely is handed the pool through
 * `measuredPool`, which times every checkout and reports it to the listeners; SQLite has no pool
 * (one embedded connection), so it reports nothing here.
 */
import type { PostgresPool } from 'kysely';
import type pg from 'pg';

type WaitListener = (seconds: number) => void;

const pools = new Set<pg.Pool>();
const listeners = new Set<WaitListener>();

/** The pool Kysely uses: `pool` with every connection checkout timed. */
export function measuredPool(pool: pg.Pool): PostgresPool {
  pools.add(pool);
  return {
    options: pool.options,
    async connect() {
      const started = performance.now();
      const client = await pool.connect();
      const seconds = (performance.now() - started) / 1000;
      for (const listener of listeners) listener(seconds);
      return client;
    },
    async end() {
      pools.delete(pool);
      await pool.end();
    },
  };
}

/** Queries of this process waiting for a free connection now (0 without a PostgreSQL pool). */
export function poolWaiting(): number {
  let waiting = 0;
  for (const pool of pools) waiting += pool.waitingCount;
  return waiting;
}

/** Listens to every checkout's duration in seconds; returns what stops listening. */
export function onPoolWait(listener: WaitListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

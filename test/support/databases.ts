/**
 * The databases every storage-touching test runs on: a fresh SQLite file and a fresh
 * PostgreSQL database (in the cluster `npm test` started, or BOSUN_TEST_PG_URL).
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { tempDir } from './temp.ts';

export const DIALECTS = ['sqlite', 'postgres'] as const;
export type TestDialect = (typeof DIALECTS)[number];

/**
 * For tests whose subject sits well above the store — the web console in a browser, a management
 * driver over SSH — one dialect: the store under them is tested on both by the other files, and
 * these are the suite's dearest minutes. PostgreSQL, what a cluster runs on.
 */
export const ABOVE_THE_STORE: readonly TestDialect[] = ['postgres'];

export function pgAdminUrl(): string {
  const url = process.env.BOSUN_TEST_PG_URL;
  if (!url) {
    throw new Error('BOSUN_TEST_PG_URL is not set: run the tests with `npm test`, which starts PostgreSQL');
  }
  return url;
}

/** A new empty database of the given dialect; returns its Bosun database.url. */
export async function freshDatabaseUrl(dialect: TestDialect): Promise<string> {
  if (dialect === 'sqlite') {
    return `sqlite:${join(tempDir('bosun-test-'), 'bosun.db')}`;
  }
  const name = `bosun_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

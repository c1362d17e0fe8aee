/**
 * Op occ lists are newest first (start time descending, ties by id): the database must read a
 * page in index order, within a project and across projects, on both majors, rather than sort
 * every op occ of the project for each page.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';

const QUERIES = {
  'within a project': (table: string) =>
    `SELECT id FROM ${table} WHERE project_id = 'p1' ORDER BY start_time DESC, id DESC LIMIT 10`,
  'across projects': (table: string) => `SELECT id FROM ${table} ORDER BY start_time DESC, id DESC LIMIT 10`,
};

async function plan(db: Database, dialect: string, query: string): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`).execute(db.kysely);
    return rows.rows.map((r) => r.detail).join('\n');
  }
  // Costs on an empty table say little: forbid the alternatives, and a plan that still sorts
  // has no index to read the order from.
  return db.kysely.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    await sql`SET LOCAL enable_sort = off`.execute(trx);
    const rows = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(trx);
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

for (const dialect of DIALECTS) {
  describe(`op occ list order on ${dialect}`, () => {
    let db: Database;
    before(async () => {
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 2 });
      await migrate(db);
    });
    after(() => db.close());

    for (const major of ['v1', 'v2']) {
      for (const [name, query] of Object.entries(QUERIES)) {
        test(`${major}, ${name}: a page is read in index order, not sorted`, async () => {
          const text = await plan(db, dialect, query(`vnf_lcm_op_occs_${major}`));
          assert.match(text, /newest/, `no newest-first index in the plan:\n${text}`);
          assert.doesNotMatch(text, /TEMP B-TREE|Sort/, `the plan sorts:\n${text}`);
        });
      }
    }
  });
}

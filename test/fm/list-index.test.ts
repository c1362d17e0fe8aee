/**
 * The alarm list is newest first (raise time descending, ties by id): the database must read a
 * page in index order — within a project, across projects and for one instance — rather than
 * sort every alarm; and a batch finds the open alarms of its fingerprints through the index.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';

const PAGES = {
  'within a project': "WHERE project_id = 'p1' ORDER BY alarm_raised_time DESC, id DESC LIMIT 101",
  'across projects': 'ORDER BY alarm_raised_time DESC, id DESC LIMIT 101',
  'of one instance': "WHERE managed_object_id = 'i1' ORDER BY alarm_raised_time DESC, id DESC LIMIT 101",
};

async function plan(db: Database, dialect: string, query: string): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`).execute(db.kysely);
    return rows.rows.map((r) => r.detail).join('\n');
  }
  // Costs on an empty table say little: forbid the alternatives; a plan that still sorts or
  // scans has no index to read from.
  return db.kysely.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    await sql`SET LOCAL enable_sort = off`.execute(trx);
    const rows = await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(trx);
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

for (const dialect of DIALECTS) {
  describe(`alarm indexes on ${dialect}`, () => {
    let db: Database;
    before(async () => {
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 2 });
      await migrate(db);
    });
    after(() => db.close());

    for (const [name, where] of Object.entries(PAGES)) {
      test(`a page ${name} is read in index order, not sorted`, async () => {
        const text = await plan(db, dialect, `SELECT id FROM alarms ${where}`);
        assert.match(
          text,
          /alarms_(project_|instance_)?newest/,
          `no newest-first index in the plan:\n${text}`,
        );
        assert.doesNotMatch(text, /TEMP B-TREE|Sort/, `the plan sorts:\n${text}`);
      });
    }

    test("a batch's open alarms are found through the open-fingerprint index", async () => {
      const text = await plan(
        db,
        dialect,
        "SELECT id FROM alarms WHERE alarm_cleared_time IS NULL AND project_id IN ('p1') AND fingerprint IN ('a', 'b')",
      );
      assert.match(text, /alarms_open_fingerprint/, text);
    });
  });
}

/**
 * Migration 0005 on a database that already has subscriptions (SQLite and PostgreSQL): each gets
 * its duplicate key; of pre-existing duplicates the oldest keeps it (the others stay, unkeyed);
 * from then on the unique index refuses a second identical subscription.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { dedupKey } from '../../../src/notify/subscriptions/dedup.ts';
import { openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import { MIGRATIONS } from '../../../src/store/db/migrations/index.ts';
import { DIALECTS, freshDatabaseUrl } from '../../support/databases.ts';

const BEFORE = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0005'));

for (const dialect of DIALECTS) {
  describe(`migration 0005-subscription-dedup on ${dialect}`, () => {
    test('existing subscriptions get their key; the oldest of duplicates keeps it', async () => {
      const db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 2 });
      try {
        await migrate(db, BEFORE);
        const row = (id: string, created: string, callback: string, filter: object, project = 'p1') => ({
          id,
          project_id: project,
          api: 'vnfpkgm',
          major: 'v1',
          callback_uri: callback,
          filter: JSON.stringify(filter),
          authentication: null,
          created_at: created,
        });
        // biome-ignore lint/suspicious/noExplicitAny: the table as it was before 0005
        const kysely = db.kysely as any;
        await kysely
          .insertInto('subscriptions')
          .values([
            row('b-older', '2026-01-01T00:00:00.000Z', 'http://h/cb', { vnfdId: ['x'] }),
            row('a-newer', '2026-01-02T00:00:00.000Z', 'http://h/cb', { vnfdId: ['x'] }),
            row('c-other', '2026-01-03T00:00:00.000Z', 'http://h/cb', { vnfdId: ['y'] }),
            row('d-project', '2026-01-04T00:00:00.000Z', 'http://h/cb', { vnfdId: ['x'] }, 'p2'),
          ])
          .execute();
        await migrate(db);
        const keys = Object.fromEntries(
          (
            await db.kysely.selectFrom('subscriptions').select(['id', 'dedup_key', 'verbosity']).execute()
          ).map((r) => [r.id, r.dedup_key]),
        );
        const x = dedupKey({ callbackUri: 'http://h/cb', filter: { vnfdId: ['x'] } });
        assert.deepEqual(keys, {
          'b-older': x,
          'a-newer': null,
          'c-other': dedupKey({ callbackUri: 'http://h/cb', filter: { vnfdId: ['y'] } }),
          'd-project': x,
        });
        await assert.rejects(
          db.kysely
            .insertInto('subscriptions')
            .values({
              ...row('e-again', '2026-01-05T00:00:00.000Z', 'http://h/cb', { vnfdId: ['x'] }),
              dedup_key: x,
              verbosity: null,
            })
            .execute(),
        );
      } finally {
        await db.close();
      }
    });
  });
}

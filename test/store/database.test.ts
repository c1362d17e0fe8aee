import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { SealedBox } from '../../src/security/sealed-box.ts';
import { ServerKeys } from '../../src/security/server-keys.ts';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { MIGRATIONS } from '../../src/store/db/migrations/index.ts';
import { inTransaction } from '../../src/store/db/transaction.ts';

const ALL = Object.keys(MIGRATIONS);

import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';

const run = promisify(execFile);
const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;

for (const dialect of DIALECTS) {
  describe(`store on ${dialect}`, () => {
    let url: string;
    let db: Database;
    before(async () => {
      url = await freshDatabaseUrl(dialect);
      db = openDatabase({ url, poolSize: 4 });
    });
    after(() => db.close());

    test('migrations apply once, then report nothing to do', async () => {
      const first = await migrate(db);
      assert.deepEqual(first.applied, ALL);
      const second = await migrate(db);
      assert.deepEqual(second.applied, []);
      assert.deepEqual(second.current, ALL);
    });

    test('`bosun db migrate` from several processes at once applies each migration once', async () => {
      const url2 = await freshDatabaseUrl(dialect);
      const env = {
        ...process.env,
        BOSUN_DATABASE_URL: url2,
        BOSUN_SECURITY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      };
      const outcomes = await Promise.all(
        [1, 2, 3].map(() =>
          run(BOSUN, ['db', 'migrate', '--json'], { env }).then((r) => JSON.parse(r.stdout)),
        ),
      );
      assert.deepEqual(outcomes.flatMap((o: { applied: string[] }) => o.applied).sort(), ALL);
      assert.ok(outcomes.every((o: { current: string[] }) => o.current.join() === ALL.join()));
    });

    test('a failing transaction leaves nothing behind', async () => {
      const row = (id: string) => ({
        client_id: id,
        secret_hash: 'x',
        description: '',
        project_id: 'p',
        scopes: '[]',
        created_at: new Date().toISOString(),
      });
      await assert.rejects(
        inTransaction(db, async (trx) => {
          await trx.insertInto('auth_clients').values(row('tx-a')).execute();
          await trx.insertInto('auth_clients').values(row('tx-a')).execute(); // duplicate key
        }),
      );
      const found = await db.kysely
        .selectFrom('auth_clients')
        .select('client_id')
        .where('client_id', '=', 'tx-a')
        .execute();
      assert.deepEqual(found, []);
      await inTransaction(db, (trx) => trx.insertInto('auth_clients').values(row('tx-b')).execute());
      assert.equal(
        (
          await db.kysely
            .selectFrom('auth_clients')
            .select('client_id')
            .where('client_id', '=', 'tx-b')
            .execute()
        ).length,
        1,
      );
    });

    test('server keys: created once, shared by replicas, sealed at rest', async () => {
      const box = new SealedBox(randomBytes(32));
      const a = new ServerKeys(db, box);
      const b = new ServerKeys(openDatabase({ url, poolSize: 1 }), box);
      const [ka, kb] = await Promise.all([
        a.get('k1', () => randomBytes(32)),
        b.get('k1', () => randomBytes(32)),
      ]);
      assert.ok(ka.equals(kb));
      const stored = await db.kysely
        .selectFrom('server_keys')
        .select('sealed_value')
        .where('name', '=', 'k1')
        .executeTakeFirstOrThrow();
      assert.ok(!stored.sealed_value.includes(ka.toString('base64url')));
      assert.ok(box.open(stored.sealed_value).equals(ka));
      const wrongKey = new ServerKeys(db, new SealedBox(randomBytes(32)));
      await assert.rejects(
        wrongKey.get('k1', () => randomBytes(32)),
        /another encryption key/,
      );
    });

    test('ping answers', async () => {
      await db.ping();
      const r = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
      assert.equal(Number(r.rows[0].one), 1);
    });
  });
}

describe('sealed box', () => {
  test('round trip, tamper detection, wrong key', () => {
    const box = new SealedBox(randomBytes(32));
    const sealed = box.seal('s3cret');
    assert.equal(box.open(sealed).toString(), 's3cret');
    assert.notEqual(box.seal('s3cret'), sealed, 'a fresh IV each time');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    assert.throws(() => box.open(parts.join('.')));
    assert.throws(() => new SealedBox(randomBytes(32)).open(sealed), /another encryption key/);
    assert.throws(() => new SealedBox(randomBytes(16)), /32 bytes/);
  });
});

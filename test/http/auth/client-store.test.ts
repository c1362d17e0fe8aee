import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AuthClientStore } from '../../../src/store/auth-clients/store.ts';
import { AuthClientError } from '../../../src/store/auth-clients/validate.ts';
import { type Database, openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import { DIALECTS, freshDatabaseUrl } from '../../support/databases.ts';

for (const dialect of DIALECTS) {
  describe(`auth client store on ${dialect}`, () => {
    let db: Database;
    let store: AuthClientStore;
    before(async () => {
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 2 });
      await migrate(db);
      store = new AuthClientStore(db, { adminScope: 'bosun:admin' });
    });
    after(() => db.close());

    test('add stores a scrypt hash only, and verify checks the secret', async () => {
      const { client, secret } = await store.add({
        project: 'p1',
        scopes: ['vnflcm:v2:all', 'vnflcm:v2:all', 'bosun:admin'],
        description: 'ci',
      });
      assert.match(client.clientId, /^bosun-[0-9a-f]{16}$/);
      assert.deepEqual(client.scopes, ['vnflcm:v2:all', 'bosun:admin']);
      assert.ok(secret.length >= 40);
      const row = await db.kysely
        .selectFrom('auth_clients')
        .selectAll()
        .where('client_id', '=', client.clientId)
        .executeTakeFirstOrThrow();
      assert.match(row.secret_hash, /^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
      assert.ok(!row.secret_hash.includes(secret));
      assert.deepEqual(await store.verify(client.clientId, secret), client);
      assert.equal(await store.verify(client.clientId, secret.slice(1)), undefined);
      assert.equal(await store.verify('nobody', secret), undefined);
    });

    test('list and get never expose the hash', async () => {
      await store.add({ clientId: 'listed', project: 'p2', scopes: ['vnfpkgm:v1:readonly'] });
      const listed = await store.list();
      assert.ok(listed.some((c) => c.clientId === 'listed'));
      assert.ok(!JSON.stringify(listed).includes('scrypt'));
      const one = await store.get('listed');
      assert.deepEqual(Object.keys(one ?? {}).sort(), [
        'clientId',
        'createdAt',
        'description',
        'project',
        'scopes',
      ]);
    });

    test('a duplicate id is refused by name', async () => {
      await store.add({ clientId: 'twice', project: 'p1', scopes: ['vnflcm:v2:all'] });
      await assert.rejects(store.add({ clientId: 'twice', project: 'p1', scopes: ['vnflcm:v2:all'] }), {
        name: 'AuthClientError',
        message: "a client with id 'twice' already exists",
      });
    });

    test('concurrent adds of one id: exactly one wins', async () => {
      const results = await Promise.allSettled(
        [1, 2, 3].map(() => store.add({ clientId: 'race', project: 'p1', scopes: ['vnflcm:v2:all'] })),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results) {
        if (r.status === 'rejected') assert.ok(r.reason instanceof AuthClientError, String(r.reason));
      }
    });

    test('inputs are validated with messages that say what is wrong', async () => {
      await assert.rejects(store.add({ project: 'p1', scopes: ['vnflcm:v9:all'] }), (err: Error) => {
        assert.ok(err instanceof AuthClientError);
        assert.match(
          err.message,
          /unknown scope 'vnflcm:v9:all'; valid scopes: .*vnflcm:v2:all.*bosun:admin/,
        );
        return true;
      });
      await assert.rejects(store.add({ project: 'p1', scopes: [] }), /at least one scope/);
      await assert.rejects(
        store.add({ project: 'bad project', scopes: ['vnflcm:v2:all'] }),
        /invalid project id/,
      );
      await assert.rejects(
        store.add({ project: 'x'.repeat(129), scopes: ['vnflcm:v2:all'] }),
        /invalid project id/,
      );
      await assert.rejects(
        store.add({ clientId: 'a:b', project: 'p1', scopes: ['vnflcm:v2:all'] }),
        /invalid client id 'a:b'/,
      );
    });

    test('remove deletes and reports unknown ids', async () => {
      const { client, secret } = await store.add({ project: 'p1', scopes: ['vnflcm:v2:all'] });
      assert.equal(await store.remove(client.clientId), true);
      assert.equal(await store.get(client.clientId), undefined);
      assert.equal(await store.verify(client.clientId, secret), undefined);
      assert.equal(await store.remove(client.clientId), false);
    });
  });
}

/**
 * enqueueNotification writes its rows in the caller's transaction: they commit with the change
 * or vanish with it; only the project's subscriptions of the API whose filter matches get a row.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { enqueueNotification } from '../../src/notify/outbox.ts';
import { emitPackageNotification, packageOnboarded } from '../../src/notify/package-notifications.ts';
import { createSubscription } from '../../src/notify/subscription-store.ts';
import { inTransaction } from '../../src/store/db/transaction.ts';
import { DIALECTS } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const PKG = {
  vnfPkgId: '0b8f3a3e-2222-4000-8000-000000000001',
  vnfdId: 'vnfd-1',
  operationalState: 'ENABLED',
};

for (const dialect of DIALECTS) {
  describe(`notification outbox on ${dialect}`, () => {
    let server: TestServer;
    const ids: Record<string, string> = {};
    before(async () => {
      server = await startTestServer(dialect);
      const { db, box } = server.context;
      const add = async (name: string, projectId: string, api: string, filter?: Record<string, unknown>) => {
        ids[name] = (
          await createSubscription(db.kysely, box, {
            projectId,
            api,
            major: 'v2',
            callbackUri: `http://127.0.0.1:9/${name}`,
            filter,
          })
        ).id;
      };
      await add('match', 'p1', 'vnfpkgm');
      await add('filtered', 'p1', 'vnfpkgm', { vnfdId: ['vnfd-2'] });
      await add('otherProject', 'p2', 'vnfpkgm');
      await add('otherApi', 'p1', 'vnflcm');
    });
    after(() => server.close());

    const rows = () =>
      server.context.db.kysely.selectFrom('notification_outbox').selectAll().orderBy('id').execute();

    test('rolled back with the transaction', async () => {
      await assert.rejects(
        inTransaction(server.context.db, async (trx) => {
          assert.equal(await emitPackageNotification(trx, 'p1', packageOnboarded(PKG)), 1);
          throw new Error('the state change failed');
        }),
        /the state change failed/,
      );
      assert.deepEqual(await rows(), []);
    });

    test('committed with the transaction: one row for the matching subscription only', async () => {
      const count = await inTransaction(server.context.db, (trx) =>
        emitPackageNotification(trx, 'p1', packageOnboarded(PKG)),
      );
      assert.equal(count, 1);
      const written = await rows();
      assert.equal(written.length, 1);
      assert.equal(written[0].subscription_id, ids.match);
      assert.equal(written[0].state, 'pending');
      assert.equal(Number(written[0].attempts), 0);
      assert.equal(written[0].major, 'v2');
      assert.ok(!Number.isNaN(Date.parse(written[0].next_attempt_at)));
      assert.equal(JSON.parse(written[0].payload).id, written[0].notification_id);
    });

    test('ids grow in production order (per-subscriber FIFO)', async () => {
      const before = (await rows()).length;
      for (let i = 0; i < 5; i++) {
        await enqueueNotification(server.context.db.kysely, {
          project: 'p1',
          api: 'vnfpkgm',
          notification: packageOnboarded({ ...PKG, vnfdId: `vnfd-seq-${i}` }),
        });
      }
      const mine = (await rows()).slice(before).filter((r) => r.subscription_id === ids.match);
      assert.deepEqual(
        mine.map((r) => JSON.parse(r.payload).vnfdId),
        [0, 1, 2, 3, 4].map((i) => `vnfd-seq-${i}`),
      );
      const numeric = mine.map((r) => Number(r.id));
      assert.deepEqual(
        numeric,
        [...numeric].sort((a, b) => a - b),
      );
    });
  });
}

/**
 * A subscription deleted through a SOL API takes its queue and its delivery state with it, in
 * the delete's transaction, on SQLite and PostgreSQL: nothing is left for the admin API or the
 * sweep. A delivery in flight when the delete commits ends quietly: nothing recorded, nothing
 * logged as a failure, and its lease claim or upsert never re-creates the delivery row.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { deepMerge } from '../../../src/config/load.ts';
import { type RunningServer, startServer } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/logging.ts';
import { claimSubscription } from '../../../src/notify/delivery/queue.ts';
import type { Database } from '../../../src/store/db/database.ts';
import { inTransaction } from '../../../src/store/db/transaction.ts';
import { DIALECTS, freshDatabaseUrl } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { testConfig } from '../../support/server.ts';
import {
  type Api,
  enqueueFor,
  FAST_DELIVERY,
  type Receiver,
  startReceiver,
  subscribe,
  versionOf,
  waitStatus,
} from './support.ts';

interface LogLine {
  level: number;
  msg: string;
  subscriptionId?: string;
}

/** What the server logged, parsed (pino writes one JSON line per call). */
function captureLogs(): { lines: LogLine[]; stream: Writable } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  return { lines, stream };
}

async function rowsOf(db: Database, id: string) {
  const outbox = await db.kysely
    .selectFrom('notification_outbox')
    .select('id')
    .where('subscription_id', '=', id)
    .execute();
  const state = await db.kysely
    .selectFrom('notification_deliveries')
    .select('subscription_id')
    .where('subscription_id', '=', id)
    .execute();
  return { outbox: outbox.length, state: state.length };
}

async function unsubscribe(server: { url: string }, id: string, api: Api, major: string) {
  const res = await http(server.url, 'DELETE', `/${api}/${major}/subscriptions/${id}`, {
    headers: { version: versionOf(api, major) },
  });
  assert.equal(res.status, 204, res.text);
}

for (const dialect of DIALECTS) {
  describe(`deleting a subscription on ${dialect}`, () => {
    let server: RunningServer;
    const logs = captureLogs();
    const receivers: Receiver[] = [];
    const receiver = async (...args: Parameters<typeof startReceiver>) => {
      const r = await startReceiver(...args);
      receivers.push(r);
      return r;
    };
    before(async () => {
      const config = testConfig(await freshDatabaseUrl(dialect), deepMerge(FAST_DELIVERY, {}));
      server = await startServer(config, { logger: createLogger('info', logs.stream) });
    });
    after(async () => {
      await server.close();
      await Promise.all(receivers.map((r) => r.close()));
    });

    test('with notifications pending: its queue and delivery state are gone at once', async () => {
      const failing = await receiver(() => ({ status: 500 }));
      for (const [api, major] of [
        ['vnfpkgm', 'v1'],
        ['vnflcm', 'v2'],
      ] as const) {
        const id = await subscribe(server, `${failing.url}/${api}`, { api, major });
        await enqueueFor(server.context.db, id, 3, { api, major });
        // A failed attempt: the subscription has its delivery row and waits to retry.
        await waitStatus(server, id, (s) => s.delivery.failedAttempts >= 1, 'a failed attempt');
        assert.deepEqual(await rowsOf(server.context.db, id), { outbox: 3, state: 1 });
        await unsubscribe(server, id, api, major);
        assert.deepEqual(await rowsOf(server.context.db, id), { outbox: 0, state: 0 }, `${api} ${major}`);
        const admin = await http(server.url, 'GET', `/bosun/v1/subscriptions/${id}`);
        assert.equal(admin.status, 404);
      }
    });

    test('during a slow delivery: the call ends quietly and nothing is re-created', async () => {
      const slow = await receiver((r) => ({ status: r.path.endsWith('/fails') ? 500 : 204, delayMs: 400 }));
      const ids: string[] = [];
      for (const outcome of ['fails', 'succeeds']) {
        const id = await subscribe(server, `${slow.url}/${outcome}`);
        await enqueueFor(server.context.db, id, 2);
        ids.push(id);
      }
      await slow.waitFor((r) => r.notifications().length >= 2, 'both deliveries in flight');
      const logged = logs.lines.length;
      for (const id of ids) await unsubscribe(server, id, 'vnfpkgm', 'v1');
      for (const id of ids) assert.deepEqual(await rowsOf(server.context.db, id), { outbox: 0, state: 0 });
      // The receiver answers 400 ms after each call; give the sessions time to end and the
      // worker a few more polls (50 ms apart) in which a re-created row would be picked up.
      await new Promise((r) => setTimeout(r, 1000));
      for (const id of ids) assert.deepEqual(await rowsOf(server.context.db, id), { outbox: 0, state: 0 });
      assert.equal(slow.notifications().length, 2, 'nothing sent after the delete');
      const since = logs.lines.slice(logged);
      assert.deepEqual(
        since.filter((l) => l.level >= 40 || (l.subscriptionId && ids.includes(l.subscriptionId))),
        [],
        'no failure, retry or crash logged for the deleted subscriptions',
      );
      // The worker carries on.
      const ok = await receiver();
      const id = await subscribe(server, `${ok.url}/after`);
      await enqueueFor(server.context.db, id, 1);
      await ok.waitFor((r) => r.notifications().length === 1, 'a later delivery');
    });

    test('a lease claim for a deleted subscription writes no delivery row', async () => {
      const { db } = server.context;
      const quiet = await receiver();
      const id = await subscribe(server, `${quiet.url}/claim`);
      await unsubscribe(server, id, 'vnfpkgm', 'v1');
      assert.equal(await claimSubscription(db, id, 'test-worker', 1000), false);
      assert.deepEqual(await rowsOf(db, id), { outbox: 0, state: 0 });
    });

    test('a lease claim racing the delete transaction waits for it and writes nothing', async () => {
      const { db } = server.context;
      const quiet = await receiver();
      const id = await subscribe(server, `${quiet.url}/race`);
      // Delivery state as a previous session left it (lease expired, nothing pending).
      await db.kysely.insertInto('notification_deliveries').values({ subscription_id: id }).execute();
      let deleted!: () => void;
      const deletedSignal = new Promise<void>((resolve) => {
        deleted = resolve;
      });
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => {
        commit = resolve;
      });
      const deleting = inTransaction(db, async (trx) => {
        await trx.deleteFrom('subscriptions').where('id', '=', id).execute();
        await trx.deleteFrom('notification_deliveries').where('subscription_id', '=', id).execute();
        deleted();
        await committing;
      });
      await deletedSignal;
      // Started outside the transaction's callback, while the delete is not committed yet.
      const claim = claimSubscription(db, id, 'test-worker', 1000);
      await new Promise((r) => setTimeout(r, 200));
      commit();
      await deleting;
      assert.equal(await claim, false);
      assert.deepEqual(await rowsOf(db, id), { outbox: 0, state: 0 });
    });
  });
}

/**
 * Nothing is lost and order is kept across crashes, with real processes: `bosun serve` killed
 * with SIGKILL in the middle of deliveries, then restarted on the same database, delivers every
 * notification, each subscriber's in order (a notification sent just before the crash may come
 * again: at least once, same id). Two worker processes sharing one PostgreSQL deliver every
 * notification once, each subscription by one worker at a time.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openDatabase } from '../../../src/store/db/database.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { kill9, newEnv, serve, stop } from './processes.ts';
import { enqueueFor, type Receiver, range, startReceiver, subscribe, waitStatus } from './support.ts';

/** Per subscription, the seqs in the order of their first arrival. */
function firstArrivals(receiver: Receiver, subscriptionId: string): number[] {
  const seen = new Set<number>();
  const order: number[] = [];
  for (const n of receiver.notifications()) {
    if (n.body?.subscriptionId !== subscriptionId) continue;
    const seq = n.body.seq as number;
    if (!seen.has(seq)) order.push(seq);
    seen.add(seq);
  }
  return order;
}

/** Each arrival is the next notification or a repeat of an earlier one: never a skip ahead. */
function neverSkips(receiver: Receiver, subscriptionId: string): boolean {
  let next = 0;
  for (const n of receiver.notifications()) {
    if (n.body?.subscriptionId !== subscriptionId) continue;
    const seq = n.body.seq as number;
    if (seq > next) return false;
    if (seq === next) next++;
  }
  return true;
}

const PER_SUBSCRIPTION = 60;

for (const dialect of DIALECTS) {
  describe(`delivery across a crash on ${dialect}`, () => {
    test('kill -9 with pending deliveries; after a restart everything arrives, in order', async () => {
      const env = await newEnv(dialect);
      // A receiver slow enough that the crash lands in the middle of the deliveries.
      const receiver = await startReceiver(() => ({ status: 204, delayMs: 5 }));
      const db = openDatabase({ url: env.databaseUrl, poolSize: 2 });
      let first = await serve(env, 'all');
      try {
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push(await subscribe(first, `${receiver.url}/crash/${i}`));
        for (const id of ids) await enqueueFor(db, id, PER_SUBSCRIPTION);
        await receiver.waitFor((r) => r.notifications().length >= 30, 'deliveries under way');
        await kill9(first.child);
        const beforeRestart = receiver.notifications().length;
        assert.ok(beforeRestart < 3 * PER_SUBSCRIPTION, 'the crash came before the end');

        first = await serve(env, 'all');
        for (const id of ids) {
          await receiver.waitFor(
            (r) => firstArrivals(r, id).length === PER_SUBSCRIPTION,
            `every notification of ${id}`,
            20_000,
          );
          assert.deepEqual(firstArrivals(receiver, id), range(0, PER_SUBSCRIPTION));
          assert.ok(neverSkips(receiver, id), `${id}: no notification overtook an earlier one`);
        }
        // Each notification is counted delivered once (deleted rows are counted in the same
        // transaction, a moment after the receiver answered), and the queue ends empty.
        for (const id of ids) {
          const status = await waitStatus(
            first,
            id,
            (s) => s.delivery.pending === 0 && s.delivery.delivered >= PER_SUBSCRIPTION,
            `${id} drained`,
          );
          assert.equal(status.delivery.delivered, PER_SUBSCRIPTION);
        }
        const left = await db.kysely.selectFrom('notification_outbox').select('id').execute();
        assert.deepEqual(left, []);
      } finally {
        await kill9(first.child);
        await receiver.close();
        await db.close();
      }
    });
  });
}

describe('two worker processes sharing one PostgreSQL', () => {
  test('every notification delivered exactly once, each subscription in order', async () => {
    const env = await newEnv('postgres');
    const receiver = await startReceiver(() => ({ status: 204, delayMs: 2 }));
    const db = openDatabase({ url: env.databaseUrl, poolSize: 2 });
    // Few slots each, so that both workers must take subscriptions; a lease long enough that a
    // busy machine's pauses never let it lapse while a worker is still sending.
    const slots = {
      BOSUN_NOTIFY_CONCURRENCY: '3',
      BOSUN_NOTIFY_BATCH_SIZE: '10',
      BOSUN_WORKER_LEASE_MS: '5000',
    };
    const a = await serve(env, 'all', slots);
    const b = await serve(env, 'worker', slots);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push(await subscribe(a, `${receiver.url}/pair/${i}`));
      for (const id of ids) await enqueueFor(db, id, 50);
      await receiver.waitFor((r) => r.notifications().length >= 500, 'all 500 notifications', 30_000);
      // Let any stray duplicate arrive before counting.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const notificationIds = receiver.notifications().map((n) => n.body?.id);
      assert.equal(notificationIds.length, 500, 'no notification delivered twice');
      assert.equal(new Set(notificationIds).size, 500);
      for (const id of ids) {
        const seqs = receiver
          .notifications()
          .filter((n) => n.body?.subscriptionId === id)
          .map((n) => n.body?.seq);
        assert.deepEqual(seqs, range(0, 50));
      }
      // Both workers delivered.
      for (const process of [a, b]) {
        const metrics = (await http<string>(process.url, 'GET', '/metrics')).text;
        const delivered =
          /^bosun_notification_deliveries_total\{api="vnfpkgm",outcome="delivered"\} (\d+)$/m.exec(metrics);
        assert.ok(Number(delivered?.[1] ?? 0) > 0, `${process.url} delivered some`);
      }
    } finally {
      await Promise.all([stop(a.child), stop(b.child)]);
      await receiver.close();
      await db.close();
    }
  });
});

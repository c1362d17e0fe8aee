/**
 * On PostgreSQL the transaction that queues notifications wakes the delivery workers of every
 * process when it commits (NOTIFY bosun_delivery): a worker process that polls only once an
 * hour delivers what another process queued — twice, so that the second cannot be the look it
 * takes when it starts listening. Its metrics count the statements it ran. And a busy
 * subscription whose session spent its time is handed to another worker process: one that
 * starts after the first took every subscription, and polls once an hour, still gets a share.
 * (SQLite is one process: its in-process wake-up is what every other delivery test runs on.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { enqueueNotification } from '../../../src/notify/outbox.ts';
import { pendingNotification, subscriptionLink } from '../../../src/notify/subscriptions/pending.ts';
import { openDatabase } from '../../../src/store/db/database.ts';
import { inTransaction } from '../../../src/store/db/transaction.ts';
import { http } from '../../support/http.ts';
import { newEnv, serve, stop } from './processes.ts';
import { enqueueFor, startReceiver, subscribe } from './support.ts';

const HOUR_MS = String(60 * 60 * 1000);
/** Far below the hour the workers poll at; far above what a loaded CI machine needs. */
const AT_ONCE_MS = 60_000;

/** What a process counted as delivered (its metric). */
async function deliveredBy(served: { url: string }): Promise<number> {
  const metrics = await http<string>(served.url, 'GET', '/metrics');
  const found = /^bosun_notification_deliveries_total\{api="vnfpkgm",outcome="delivered"\} (\S+)$/m.exec(
    metrics.text,
  );
  return Number(found?.[1] ?? 0);
}

describe('delivery wake-ups across processes on postgres', () => {
  test('a worker of another process delivers at once what is queued, without waiting for its poll', async () => {
    const env = await newEnv('postgres');
    const receiver = await startReceiver();
    const db = openDatabase({ url: env.databaseUrl, poolSize: 1 });
    const api = await serve(env, 'api');
    const worker = await serve(env, 'worker', { BOSUN_WORKER_POLL_INTERVAL_MS: HOUR_MS });
    try {
      const id = await subscribe(api, `${receiver.url}/wake`);
      // Queued as every Bosun change queues its notifications: through the outbox, in a transaction.
      const queue = (seq: number) =>
        inTransaction(db, (trx) =>
          enqueueNotification(trx, {
            project: 'default',
            api: 'vnfpkgm',
            notification: pendingNotification({
              notificationType: 'VnfPackageChangeNotification',
              matches: () => true,
              fields: () => ({ seq }),
              links: (target) => ({ subscription: subscriptionLink('vnfpkgm', target) }),
            }),
          }),
        );
      assert.equal(await queue(0), 1);
      await receiver.waitFor((r) => r.notifications().length === 1, 'the first notification', AT_ONCE_MS);
      assert.equal(await queue(1), 1);
      await receiver.waitFor((r) => r.notifications().length === 2, 'the second notification', AT_ONCE_MS);
      const seqs = receiver.notifications().map((n) => [n.body?.subscriptionId, n.body?.seq]);
      assert.deepEqual(seqs, [
        [id, 0],
        [id, 1],
      ]);

      const metrics = await http<string>(worker.url, 'GET', '/metrics');
      const statements = Number(
        /^bosun_notification_delivery_statements_total (\S+)$/m.exec(metrics.text)?.[1] ?? Number.NaN,
      );
      assert.ok(
        statements > 0,
        `the worker counted its statements (${metrics.text.length} bytes of metrics)`,
      );
    } finally {
      await stop(worker.child);
      await stop(api.child);
      await db.close();
      await receiver.close();
    }
  });

  test('busy subscriptions spread to a worker process that started after the first took them all', async () => {
    const env = await newEnv('postgres');
    // Slow enough that each subscription's sessions spend their time budget; slower still until
    // the second process is up, so that the first cannot finish everything while it starts.
    let secondUp = false;
    const receiver = await startReceiver(() => ({ status: 204, delayMs: secondUp ? 4 : 40 }));
    const db = openDatabase({ url: env.databaseUrl, poolSize: 1 });
    const api = await serve(env, 'api');
    const first = await serve(env, 'worker');
    let second: Awaited<ReturnType<typeof serve>> | undefined;
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await subscribe(api, `${receiver.url}/busy/${i}`));
      for (const id of ids) await enqueueFor(db, id, 700);
      await receiver.waitFor((r) => r.notifications().length >= 30, 'deliveries under way', AT_ONCE_MS);
      second = await serve(env, 'worker', { BOSUN_WORKER_POLL_INTERVAL_MS: HOUR_MS });
      secondUp = true;
      await receiver.waitFor((r) => r.notifications().length >= 2100, 'every notification', 4 * AT_ONCE_MS);
      assert.ok((await deliveredBy(second)) > 0, 'the second worker process delivered some');
      assert.ok((await deliveredBy(first)) > 0, 'the first one delivered some');
    } finally {
      if (second) await stop(second.child);
      await stop(first.child);
      await stop(api.child);
      await db.close();
      await receiver.close();
    }
  });
});

/**
 * On PostgreSQL the transaction that queues notifications wakes the delivery workers of every
 * process when it commits (NOTIFY bosun_delivery): a worker process that polls only once an
 * hour delivers what another process queued — twice, so that the second cannot be the look it
 * takes when it starts listening. Its metrics count the statements it ran. (SQLite is one
 * process: its in-process wake-up is what every other delivery test runs on.)
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { enqueueNotification } from '../../../src/notify/outbox.ts';
import { pendingNotification, subscriptionLink } from '../../../src/notify/subscriptions/pending.ts';
import { openDatabase } from '../../../src/store/db/database.ts';
import { inTransaction } from '../../../src/store/db/transaction.ts';
import { http } from '../../support/http.ts';
import { newEnv, serve, stop } from './processes.ts';
import { startReceiver, subscribe } from './support.ts';

const HOUR_MS = String(60 * 60 * 1000);

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
      await receiver.waitFor((r) => r.notifications().length === 1, 'the first notification');
      assert.equal(await queue(1), 1);
      await receiver.waitFor((r) => r.notifications().length === 2, 'the second notification');
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
});

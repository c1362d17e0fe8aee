/**
 * Failed deliveries against real receivers, on SQLite and PostgreSQL: receiver down, 500, 4xx,
 * too slow (timeout) and an address the outbound policy refuses each fail the attempt with a
 * reason; failed notifications are retried with back-off until delivered — the subscriber's
 * order kept — or dead after notify.maxAttempts; dead ones are sent again on redeliver.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { QueuedNotification } from '../../../src/notify/delivery/queued.ts';
import { createSubscription } from '../../../src/notify/subscription-store.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import {
  adminStatus,
  deliveryServer,
  enqueueFor,
  range,
  seqsOf,
  startDeliveryServer,
  subscribe,
  waitStatus,
} from './support.ts';

const problem = (detail: string) => JSON.stringify({ status: 500, detail });

for (const dialect of DIALECTS) {
  describe(`failed deliveries on ${dialect}`, () => {
    const server = deliveryServer(dialect);
    const receiver = server.receiver;

    test('a receiver that is down: retried with back-off, then dead with the reason', async () => {
      const gone = await receiver();
      const id = await subscribe(server, `${gone.url}/down`);
      await gone.close();
      await enqueueFor(server.context.db, id, 2);
      const status = await waitStatus(server, id, (s) => s.delivery.dead === 2, 'both dead');
      assert.equal(status.delivery.pending, 0);
      // notify.maxAttempts (4) attempts each.
      assert.equal(status.delivery.failedAttempts, 8);
      assert.equal(status.delivery.delivered, 0);
      assert.match(status.delivery.lastError ?? '', /connection refused by http:\/\/127\.0\.0\.1:\d+\/down/);
      assert.ok(status.delivery.lastErrorAt);
      const rows = await server.context.db.kysely
        .selectFrom('notification_outbox')
        .select(['state', 'attempts', 'last_error'])
        .where('subscription_id', '=', id)
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.state, r.attempts]),
        [
          ['dead', 4],
          ['dead', 4],
        ],
      );
    });

    test('500 and 4xx answers fail the attempt and name the status and the detail', async () => {
      for (const status of [500, 400, 404]) {
        const r = await receiver(() => ({ status, body: problem(`nope ${status}`) }));
        const id = await subscribe(server, `${r.url}/status`);
        await enqueueFor(server.context.db, id, 1);
        const s = await waitStatus(server, id, (x) => x.delivery.dead === 1, `dead after ${status}`);
        assert.equal(s.delivery.lastError, `POST ${r.url}/status answered HTTP ${status}: nope ${status}`);
        assert.equal(r.notifications().length, 4);
      }
    });

    test('a receiver slower than notify.requestTimeoutMs (1 s) fails the attempt', async () => {
      const slow = await receiver(() => ({ status: 204, delayMs: 3000 }));
      const id = await subscribe(server, `${slow.url}/slow`);
      await enqueueFor(server.context.db, id, 1);
      const s = await waitStatus(server, id, (x) => x.delivery.failedAttempts >= 1, 'a timeout');
      assert.equal(s.delivery.lastError, `${slow.url}/slow did not answer within 1000 ms`);
      assert.equal(s.delivery.delivered, 0);
      // Answering in time again: delivered (at least once: the receiver may have seen it before).
      slow.behave(() => ({ status: 204 }));
      await waitStatus(server, id, (x) => x.delivery.delivered === 1, 'delivered after the receiver sped up');
    });

    test('retried until delivered, in order: nothing overtakes a failing notification', async () => {
      const failures = new Map<number, number>([
        [3, 2],
        [7, 1],
      ]);
      const r = await receiver((req) => {
        const seq = req.body?.seq as number;
        const left = failures.get(seq) ?? 0;
        if (left > 0) {
          failures.set(seq, left - 1);
          return { status: 503 };
        }
        return { status: 204 };
      });
      const id = await subscribe(server, `${r.url}/flaky`);
      await enqueueFor(server.context.db, id, 10);
      await waitStatus(server, id, (s) => s.delivery.delivered === 10, 'all delivered');
      // Every attempt, failed ones included, in order: a failing notification is retried before the next.
      assert.deepEqual(seqsOf(r, id), [0, 1, 2, 3, 3, 3, 4, 5, 6, 7, 7, 8, 9]);
      const s = await adminStatus(server, id);
      assert.equal(s.delivery.failedAttempts, 3);
      assert.equal(s.delivery.pending, 0);
      assert.equal(s.delivery.dead, 0);
      assert.match(s.delivery.lastError ?? '', /answered HTTP 503/);
      // The same stable id on every attempt of a notification.
      const ids = r
        .notifications()
        .filter((n) => n.body?.seq === 3)
        .map((n) => n.body?.id);
      assert.equal(new Set(ids).size, 1);
    });

    test('dead after notify.maxAttempts; the next ones go on; redeliver sends the dead again', async () => {
      let refuse = true;
      const r = await receiver((req) => ({ status: refuse && req.body?.seq === 1 ? 500 : 204 }));
      const id = await subscribe(server, `${r.url}/dead`);
      await enqueueFor(server.context.db, id, 4);
      const s = await waitStatus(
        server,
        id,
        (x) => x.delivery.delivered === 3 && x.delivery.dead === 1,
        'one dead',
      );
      assert.deepEqual(seqsOf(r, id), [0, 1, 1, 1, 1, 2, 3]);
      assert.match(s.delivery.lastError ?? '', /answered HTTP 500/);
      const listed = `/bosun/v1/subscriptions/${id}/notifications?filter=(eq,state,dead)`;
      const dead = await http<QueuedNotification[]>(server.url, 'GET', listed);
      assert.deepEqual(
        dead.body.map((n) => [n.state, n.attempts, n.nextAttemptAt]),
        [['dead', 4, undefined]],
      );
      assert.match(dead.body[0].lastError ?? '', /answered HTTP 500/);

      refuse = false;
      const redelivered = await http<{ redelivered: number }>(
        server.url,
        'POST',
        `/bosun/v1/subscriptions/${id}/redeliver`,
      );
      assert.equal(redelivered.status, 200, redelivered.text);
      assert.deepEqual(redelivered.body, { id, redelivered: 1 });
      const after = await waitStatus(server, id, (x) => x.delivery.delivered === 4, 'redelivered');
      assert.equal(after.delivery.dead, 0);
      assert.deepEqual(seqsOf(r, id), [0, 1, 1, 1, 1, 2, 3, 1]);
      assert.deepEqual((await http(server.url, 'GET', listed)).body, []);
    });

    test('an address the outbound policy refuses: nothing is sent, the reason is recorded', async () => {
      const strict = await startDeliveryServer(dialect, { config: { outbound: { allow: [] } } });
      try {
        const r = await receiver();
        // Stored while loopback was allowed (a policy tightened later): delivery checks again.
        const sub = await createSubscription(strict.context.db.kysely, strict.context.box, {
          projectId: 'default',
          api: 'vnfpkgm',
          major: 'v1',
          callbackUri: `${r.url}/private`,
        });
        await enqueueFor(strict.context.db, sub.id, 1);
        const s = await waitStatus(strict, sub.id, (x) => x.delivery.dead === 1, 'refused, then dead');
        assert.match(
          s.delivery.lastError ?? '',
          /^refusing to call 127\.0\.0\.1, a loopback address; if Bosun may call it, add it to outbound\.allow/,
        );
        assert.deepEqual(r.received, []);
      } finally {
        await strict.close();
      }
    });

    test('independent subscriptions: one failing does not hold the others back', async () => {
      const bad = await receiver(() => ({ status: 500 }));
      const good = await receiver();
      const badId = await subscribe(server, `${bad.url}/bad`);
      const goodId = await subscribe(server, `${good.url}/good`);
      await enqueueFor(server.context.db, badId, 3);
      await enqueueFor(server.context.db, goodId, 20);
      await good.waitFor((x) => seqsOf(x, goodId).length === 20, 'the good subscriber served');
      assert.deepEqual(seqsOf(good, goodId), range(0, 20));
      await waitStatus(server, badId, (x) => x.delivery.dead === 3, 'the bad one dead');
    });
  });
}

/**
 * The admin view of subscriptions with their delivery state (/bosun/v1/subscriptions), on
 * SQLite and PostgreSQL: list across APIs (filter by api, SOL013 filter, paging), show, the
 * callback test on demand, redeliver (see failures.test.ts), delete with the queue; the delivery
 * metrics; and in oauth2 mode, only the bosun:admin scope gets in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { QueuedNotification } from '../../../src/notify/delivery/queued.ts';
import { addClient, bearer, tokenOf } from '../../http/auth/oauth2-support.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import {
  type AdminStatus,
  deliveryServer,
  enqueueFor,
  type Receiver,
  startDeliveryServer,
  subscribe,
  versionOf,
  waitStatus,
} from './support.ts';

const BASE = '/bosun/v1/subscriptions';

for (const dialect of DIALECTS) {
  describe(`admin subscriptions API on ${dialect}`, () => {
    const server = deliveryServer(dialect, {
      config: {
        paging: { pageSizes: { bosun_subscriptions: 2, bosun_subscription_notifications: 1 } },
        // Long back-off: the failing subscription stays pending (and visible) during the test.
        notify: { initialBackoffMs: 60_000, maxBackoffMs: 60_000 },
      },
    });
    let ok: Receiver;
    let failing: Receiver;
    const ids: Record<string, string> = {};
    before(async () => {
      ok = await server.receiver();
      failing = await server.receiver((req) => ({ status: req.method === 'GET' ? 200 : 500 }));
      ids.pkg = await subscribe(server, `${ok.url}/pkg`, { api: 'vnfpkgm', major: 'v1' });
      ids.lcm = await subscribe(server, `${ok.url}/lcm`, { api: 'vnflcm', major: 'v2' });
      ids.fm = await subscribe(server, `${failing.url}/fm`, { api: 'vnffm', major: 'v1' });
      await enqueueFor(server.context.db, ids.pkg, 3, { api: 'vnfpkgm', major: 'v1' });
      await enqueueFor(server.context.db, ids.fm, 2, { api: 'vnffm', major: 'v1' });
      await waitStatus(server, ids.pkg, (s) => s.delivery.delivered === 3, 'pkg delivered');
      await waitStatus(server, ids.fm, (s) => s.delivery.failedAttempts === 1, 'fm failing');
    });

    test('list: every API with delivery state, by api, filtered and paged', async () => {
      const first = await http<AdminStatus[]>(server.url, 'GET', BASE);
      assert.equal(first.status, 200, first.text);
      assert.equal(first.body.length, 2);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
      assert.ok(next);
      const second = await http<AdminStatus[]>(next, 'GET', '');
      const all = [...first.body, ...second.body];
      assert.deepEqual(all.map((s) => s.id).sort(), Object.values(ids).sort());
      const pkg = all.find((s) => s.id === ids.pkg)!;
      assert.equal(pkg.api, 'vnfpkgm');
      assert.equal(pkg.major, 'v1');
      assert.equal(pkg.callbackUri, `${ok.url}/pkg`);
      assert.deepEqual(
        { ...pkg.delivery, lastDeliveredAt: undefined },
        { delivered: 3, pending: 0, failing: 0, dead: 0, failedAttempts: 0, lastDeliveredAt: undefined },
      );
      const fm = all.find((s) => s.id === ids.fm)!;
      assert.equal(fm.delivery.pending, 2);
      assert.equal(fm.delivery.failing, 1);
      assert.equal(fm.delivery.failedAttempts, 1);
      assert.equal(fm.delivery.lastError, `POST ${failing.url}/fm answered HTTP 500`);
      assert.ok(fm.delivery.nextAttemptAt && fm.delivery.nextAttemptAt > new Date().toISOString());
      const lcm = await http<AdminStatus[]>(server.url, 'GET', `${BASE}?api=vnflcm`);
      assert.deepEqual(
        lcm.body.map((s) => [s.id, s.delivery.delivered, s.delivery.pending]),
        [[ids.lcm, 0, 0]],
      );
      const withPending = await http<AdminStatus[]>(
        server.url,
        'GET',
        `${BASE}?filter=(gt,delivery/pending,0)`,
      );
      assert.deepEqual(
        withPending.body.map((s) => s.id),
        [ids.fm],
      );
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}?api=nope`), 400));
    });

    test('show, and 404 for an unknown id or another API', async () => {
      const one = await http<AdminStatus & { _links: Record<string, { href: string }> }>(
        server.url,
        'GET',
        `${BASE}/${ids.lcm}`,
      );
      assert.equal(one.status, 200);
      assert.deepEqual(one.body._links, {
        self: { href: `${server.url}${BASE}/${ids.lcm}` },
        subscription: { href: `${server.url}/vnflcm/v2/subscriptions/${ids.lcm}` },
      });
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/${ids.lcm}?api=vnffm`), 404));
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/no-such-id`), 404));
    });

    test('notifications: the queued ones in delivery order, paged, with their last error', async () => {
      const first = await http<QueuedNotification[]>(server.url, 'GET', `${BASE}/${ids.fm}/notifications`);
      assert.equal(first.status, 200, first.text);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
      assert.ok(next, 'a second page');
      const second = await http<QueuedNotification[]>(next, 'GET', '');
      assert.equal(second.headers.get('link'), null);
      const all = [...first.body, ...second.body];
      assert.deepEqual(
        all.map((n) => [n.notificationType, n.state, n.attempts]),
        [
          ['TestNotification', 'pending', 1],
          ['TestNotification', 'pending', 0],
        ],
      );
      assert.ok(Number(all[0].seq) < Number(all[1].seq));
      assert.equal(all[0].lastError, `POST ${failing.url}/fm answered HTTP 500`);
      assert.equal(all[1].lastError, undefined);
      const dead = await http<QueuedNotification[]>(
        server.url,
        'GET',
        `${BASE}/${ids.fm}/notifications?filter=(eq,state,dead)`,
      );
      assert.deepEqual(dead.body, []);
      const none = await http<QueuedNotification[]>(server.url, 'GET', `${BASE}/${ids.pkg}/notifications`);
      assert.deepEqual(none.body, []);
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/no-such-id/notifications`), 404));
    });

    test('test: the callback test on demand, with the reason when it fails', async () => {
      const passed = await http(server.url, 'POST', `${BASE}/${ids.pkg}/test`);
      assert.equal(passed.status, 200, passed.text);
      assert.deepEqual(passed.body, { id: ids.pkg, callbackUri: `${ok.url}/pkg`, passed: true });
      assert.equal(ok.received.at(-1)?.method, 'GET');
      assert.equal(ok.received.at(-1)?.headers.version, versionOf('vnfpkgm', 'v1'));
      const refused = await http<{ detail: string }>(server.url, 'POST', `${BASE}/${ids.fm}/test`);
      assert.ok(isProblem(refused, 422));
      assert.equal(
        refused.body.detail,
        `the callback test failed: GET ${failing.url}/fm answered HTTP 200; SOL013 requires 204 No Content`,
      );
    });

    test('metrics: attempts by outcome, retries, latency, queue depth per subscription', async () => {
      const text = (await http<string>(server.url, 'GET', '/metrics')).text;
      assert.match(text, /^bosun_notification_deliveries_total\{api="vnfpkgm",outcome="delivered"\} 3$/m);
      assert.match(text, /^bosun_notification_deliveries_total\{api="vnffm",outcome="failed"\} 1$/m);
      assert.match(text, /^bosun_notification_delivery_latency_seconds_count\{api="vnfpkgm"\} 3$/m);
      assert.match(text, /^bosun_notification_callback_duration_seconds_count\{api="vnffm"\} 1$/m);
      assert.match(
        text,
        new RegExp(`^bosun_notification_queue_depth\\{api="vnffm",subscription="${ids.fm}"\\} 2$`, 'm'),
      );
      assert.match(text, /^# TYPE bosun_notification_retries_total counter$/m);
      assert.match(text, /^# TYPE bosun_notification_dead gauge$/m);
    });

    test('delete: the subscription, its queue and its state go', async () => {
      const gone = await http(server.url, 'DELETE', `${BASE}/${ids.fm}`);
      assert.equal(gone.status, 204);
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/${ids.fm}`), 404));
      assert.ok(
        isProblem(
          await http(server.url, 'GET', `/vnffm/v1/subscriptions/${ids.fm}`, {
            headers: { version: versionOf('vnffm', 'v1') },
          }),
          404,
        ),
      );
      const db = server.context.db.kysely;
      assert.deepEqual(
        await db
          .selectFrom('notification_outbox')
          .select('id')
          .where('subscription_id', '=', ids.fm)
          .execute(),
        [],
      );
      assert.deepEqual(
        await db
          .selectFrom('notification_deliveries')
          .select('subscription_id')
          .where('subscription_id', '=', ids.fm)
          .execute(),
        [],
      );
      assert.ok(isProblem(await http(server.url, 'DELETE', `${BASE}/${ids.fm}`), 404));
    });
  });
}

describe('admin subscriptions API with oauth2', () => {
  let server: TestServer;
  before(async () => {
    server = await startDeliveryServer('sqlite', { config: { auth: { mode: 'oauth2' } } });
  });
  after(() => server.close());

  test('only the admin scope gets in', async () => {
    assert.ok(isProblem(await http(server.url, 'GET', BASE), 401));
    const tenant = await tokenOf(server, await addClient(server, ['vnfpkgm:v1:all', 'vnflcm:v2:all']));
    assert.ok(isProblem(await http(server.url, 'GET', BASE, { headers: bearer(tenant) }), 403));
    const admin = await tokenOf(server, await addClient(server, ['bosun:admin']));
    const listed = await http(server.url, 'GET', BASE, { headers: bearer(admin) });
    assert.equal(listed.status, 200, listed.text);
    assert.deepEqual(listed.body, []);
  });
});

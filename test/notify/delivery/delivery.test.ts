/**
 * Delivery to real receivers on loopback, on SQLite and PostgreSQL: what is sent (method,
 * headers, body with absolute links, Version of the subscription's API), the failures (receiver
 * down, 500, 4xx, too slow, address refused by the outbound policy), retries with back-off, dead
 * notifications and redelivery, per-subscriber order under retries, and a slow subscriber that
 * does not delay the others.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import {
  adminStatus,
  enqueueFor,
  type Receiver,
  range,
  seqsOf,
  startDeliveryServer,
  startReceiver,
  subscribe,
  versionOf,
  waitStatus,
} from './support.ts';

for (const dialect of DIALECTS) {
  describe(`notification delivery on ${dialect}`, () => {
    let server: TestServer;
    let receiver: Receiver;
    before(async () => {
      server = await startDeliveryServer(dialect, { config: { server: { publicUrl: 'https://bosun.example:8443/' } } });
      receiver = await startReceiver();
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    test('POSTs each notification with JSON, the API Version and absolute links', async () => {
      const cases = [
        { api: 'vnfpkgm', major: 'v1' },
        { api: 'vnfpkgm', major: 'v2' },
        { api: 'vnflcm', major: 'v1' },
        { api: 'vnflcm', major: 'v2' },
        { api: 'vnffm', major: 'v1' },
        { api: 'vnfpm', major: 'v2' },
      ] as const;
      for (const { api, major } of cases) {
        const path = `/plain/${api}/${major}`;
        const id = await subscribe(server, receiver.url + path, { api, major });
        const [notificationId] = await enqueueFor(server.context.db, id, 1, { api, major });
        await receiver.waitFor((r) => r.notifications().some((n) => n.path === path), `${api} ${major}`);
        const got = receiver.notifications().find((n) => n.path === path)!;
        assert.equal(got.headers['content-type'], 'application/json');
        assert.equal(got.headers.accept, 'application/json');
        assert.equal(got.headers.version, versionOf(api, major));
        assert.equal(got.headers.authorization, undefined);
        assert.deepEqual(got.body, {
          id: notificationId,
          notificationType: 'TestNotification',
          subscriptionId: id,
          timeStamp: got.body?.timeStamp,
          seq: 0,
          _links: { subscription: { href: `https://bosun.example:8443/${api}/${major}/subscriptions/${id}` } },
        });
        const status = await waitStatus(server, id, (s) => s.delivery.delivered === 1, 'delivered counter');
        assert.equal(status.delivery.pending, 0);
        assert.ok(status.delivery.lastDeliveredAt);
      }
      // Delivered rows leave the outbox.
      const left = await server.context.db.kysely.selectFrom('notification_outbox').selectAll().execute();
      assert.deepEqual(left, []);
    });
  });
}

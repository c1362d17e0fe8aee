/**
 * Delivery to real receivers on loopback, on SQLite and PostgreSQL: what is sent (method,
 * headers, body with absolute links, Version of the subscription's API), the failures (receiver
 * down, 500, 4xx, too slow, address refused by the outbound policy), retries with back-off, dead
 * notifications and redelivery, per-subscriber order under retries, and a slow subscriber that
 * does not delay the others.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { onboard, singleFilePackage } from '../../http/vnfpkgm/support.ts';
import { DIALECTS } from '../../support/databases.ts';
import {
  deliveryServer,
  enqueueFor,
  type Receiver,
  startDeliveryServer,
  subscribe,
  versionOf,
  waitStatus,
} from './support.ts';

for (const dialect of DIALECTS) {
  describe(`notification delivery on ${dialect}`, () => {
    const server = deliveryServer(dialect, {
      config: { server: { publicUrl: 'https://bosun.example:8443/' } },
    });
    let receiver: Receiver;
    before(async () => {
      receiver = await server.receiver();
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
          _links: {
            subscription: { href: `https://bosun.example:8443/${api}/${major}/subscriptions/${id}` },
          },
        });
        const status = await waitStatus(server, id, (s) => s.delivery.delivered === 1, 'delivered counter');
        assert.equal(status.delivery.pending, 0);
        assert.ok(status.delivery.lastDeliveredAt);
      }
      // Delivered rows leave the outbox.
      const left = await server.context.db.kysely.selectFrom('notification_outbox').selectAll().execute();
      assert.deepEqual(left, []);
    });

    test('package notifications flow from onboarding to the subscriber, links on the listening URL', async () => {
      const own = await startDeliveryServer(dialect, { config: { notify: { callbackTest: true } } });
      try {
        const id = await subscribe(own, `${receiver.url}/packages`, { api: 'vnfpkgm', major: 'v2' });
        // The SOL013 callback test came first: a GET with the API version.
        const test = receiver.received.find((r) => r.method === 'GET' && r.path === '/packages');
        assert.equal(test?.headers.version, '2.1.0');
        const pkg = await onboard(own.url, await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000d001'));
        assert.equal(pkg.onboardingState, 'ONBOARDED');
        await receiver.waitFor(
          (r) => r.notifications().some((n) => n.path === '/packages'),
          'the onboarding notification',
        );
        const got = receiver.notifications().filter((n) => n.path === '/packages');
        assert.equal(got.length, 1);
        const body = got[0].body as Record<string, unknown> & { _links: Record<string, { href: string }> };
        assert.equal(body.notificationType, 'VnfPackageOnboardingNotification');
        assert.equal(body.subscriptionId, id);
        assert.equal(body.vnfPkgId, pkg.id);
        assert.equal(got[0].headers.version, '2.1.0');
        assert.deepEqual(body._links, {
          vnfPackage: { href: `${own.url}/vnfpkgm/v2/vnf_packages/${pkg.id}` },
          subscription: { href: `${own.url}/vnfpkgm/v2/subscriptions/${id}` },
        });
      } finally {
        await own.close();
      }
    });
  });
}

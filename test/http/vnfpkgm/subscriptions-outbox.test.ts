/**
 * Package notifications, written to the outbox in the transaction of the change (onboarding
 * completed, operationalState changed, package deleted) and delivered to a real receiver on
 * loopback: one per matching subscription of the package's project, none for the others, in
 * production order per subscriber. A deleted subscription's undelivered notifications go with it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSubscription } from '../../../src/notify/subscription-store.ts';
import {
  type Received,
  type Receiver,
  startDeliveryServer,
  startReceiver,
} from '../../notify/delivery/support.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { createPkg, NOT_A_CSAR, onboard, putZip, singleFilePackage, V1, waitSettled } from './support.ts';

const VNFD_ID = '5d1b5c4e-0000-4000-8000-0000000a0b01';

for (const dialect of DIALECTS) {
  describe(`package notifications through the outbox on ${dialect}`, () => {
    let server: TestServer;
    let receiver: Receiver;
    const subs: Record<string, string> = {};
    before(async () => {
      receiver = await startReceiver();
      server = await startDeliveryServer(dialect, { config: { notify: { callbackTest: true } } });
      const subscribe = async (name: string, major: 'v1' | 'v2', filter?: object) => {
        const res = await http<{ id: string }>(server.url, 'POST', `/vnfpkgm/${major}/subscriptions`, {
          headers: major === 'v2' ? { Version: '2.1.0' } : {},
          body: { callbackUri: `${receiver.url}/${name}`, ...(filter ? { filter } : {}) },
        });
        assert.equal(res.status, 201, res.text);
        subs[name] = res.body.id;
      };
      await subscribe('all', 'v1');
      await subscribe('onboardingOnly', 'v2', { notificationTypes: ['VnfPackageOnboardingNotification'] });
      await subscribe('otherVnfd', 'v1', { vnfdId: ['not-this-one'] });
      await subscribe('disabledOnly', 'v2', { operationalState: ['DISABLED'] });
      await subscribe('product', 'v1', {
        vnfProductsFromProviders: [
          {
            vnfProvider: 'Bosun',
            vnfProducts: [
              { vnfProductName: 'Single', versions: [{ vnfSoftwareVersion: '1.0', vnfdVersions: ['1.0'] }] },
            ],
          },
        ],
      });
      await subscribe('otherProduct', 'v2', {
        vnfProductsFromProviders: [{ vnfProvider: 'Bosun', vnfProducts: [{ vnfProductName: 'Double' }] }],
      });
      // A subscription of another project, matching everything: never notified of this project's packages.
      const foreign = await createSubscription(server.context.db.kysely, server.context.box, {
        projectId: 'another-project',
        api: 'vnfpkgm',
        major: 'v1',
        callbackUri: `${receiver.url}/foreign`,
      });
      subs.foreign = foreign.id;
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    const to = (name: string) => receiver.notifications().filter((r) => r.path === `/${name}`);
    const bodies = (name: string) => to(name).map((r) => r.body as Record<string, unknown>);
    const kinds = (name: string) => bodies(name).map((b) => `${b.notificationType}:${b.changeType ?? ''}`);
    const outboxOf = (name: string) =>
      server.context.db.kysely
        .selectFrom('notification_outbox')
        .selectAll()
        .where('subscription_id', '=', subs[name])
        .execute();
    const waitCount = (name: string, count: number) =>
      receiver.waitFor(
        (r) => r.notifications().filter((n) => n.path === `/${name}`).length >= count,
        `${count} to ${name}`,
      );

    test('onboarding, disable and delete each notify every matching subscription, in order', async () => {
      // A failed onboarding notifies nobody: the first notification of "all" is the good package's.
      const bad = await createPkg(server.url);
      assert.equal((await putZip(server.url, bad.id, NOT_A_CSAR)).status, 202);
      assert.equal((await waitSettled(server.url, bad.id)).onboardingState, 'ERROR');

      const pkg = await onboard(server.url, await singleFilePackage(VNFD_ID));
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      for (const name of ['all', 'onboardingOnly', 'product']) await waitCount(name, 1);
      for (const name of ['all', 'onboardingOnly', 'product']) {
        const [payload] = bodies(name);
        const major = name === 'onboardingOnly' ? 'v2' : 'v1';
        assert.deepEqual(Object.keys(payload).sort(), [
          '_links',
          'id',
          'notificationType',
          'subscriptionId',
          'timeStamp',
          'vnfPkgId',
          'vnfdId',
        ]);
        assert.equal(payload.notificationType, 'VnfPackageOnboardingNotification');
        assert.equal(payload.subscriptionId, subs[name]);
        assert.equal(payload.vnfPkgId, pkg.id);
        assert.equal(payload.vnfdId, VNFD_ID);
        // Links are made absolute at delivery.
        assert.deepEqual(payload._links, {
          vnfPackage: { href: `${server.url}/vnfpkgm/${major}/vnf_packages/${pkg.id}` },
          subscription: { href: `${server.url}/vnfpkgm/${major}/subscriptions/${subs[name]}` },
        });
      }
      // Each subscriber's copy has its own stable id.
      assert.equal(new Set(['all', 'onboardingOnly', 'product'].map((n) => bodies(n)[0].id)).size, 3);

      // A userDefinedData-only change, and a refused change, are not operational state changes.
      assert.equal(
        (await http(server.url, 'PATCH', `${V1}/${pkg.id}`, { body: { userDefinedData: { k: 'v' } } }))
          .status,
        200,
      );
      assert.equal(
        (await http(server.url, 'PATCH', `${V1}/${pkg.id}`, { body: { operationalState: 'ENABLED' } }))
          .status,
        409,
      );
      const disable = await http(server.url, 'PATCH', `${V1}/${pkg.id}`, {
        body: { operationalState: 'DISABLED' },
      });
      assert.equal(disable.status, 200);
      for (const name of ['all', 'product', 'disabledOnly'])
        await waitCount(name, name === 'disabledOnly' ? 1 : 2);
      const disabled = bodies('disabledOnly')[0];
      assert.equal(disabled.notificationType, 'VnfPackageChangeNotification');
      assert.equal(disabled.changeType, 'OP_STATE_CHANGE');
      assert.equal(disabled.operationalState, 'DISABLED');
      assert.equal(disabled.vnfPkgId, pkg.id);

      assert.equal((await http(server.url, 'DELETE', `${V1}/${pkg.id}`)).status, 204);
      for (const name of ['all', 'product', 'disabledOnly'])
        await waitCount(name, name === 'disabledOnly' ? 2 : 3);
      const deleted = bodies('all')[2];
      assert.equal(deleted.changeType, 'PKG_DELETE');
      assert.equal(deleted.vnfdId, VNFD_ID);
      assert.equal('operationalState' in deleted, false);

      // Per subscriber, in the order the changes happened, and nothing else.
      assert.deepEqual(kinds('all'), [
        'VnfPackageOnboardingNotification:',
        'VnfPackageChangeNotification:OP_STATE_CHANGE',
        'VnfPackageChangeNotification:PKG_DELETE',
      ]);
      assert.deepEqual(kinds('product'), kinds('all'));
      assert.deepEqual(kinds('onboardingOnly'), ['VnfPackageOnboardingNotification:']);
      assert.deepEqual(kinds('disabledOnly'), [
        'VnfPackageChangeNotification:OP_STATE_CHANGE',
        'VnfPackageChangeNotification:PKG_DELETE',
      ]);
      // Nothing for the other project, vnfdId or product: neither delivered nor waiting. (Their rows
      // would have been written in the transactions of the notifications seen above.)
      for (const never of ['foreign', 'otherVnfd', 'otherProduct']) {
        assert.deepEqual(to(never), [], never);
        assert.deepEqual(await outboxOf(never), [], never);
      }
    });

    test('a refused delete (package ENABLED) notifies nobody', async () => {
      const pkg = await onboard(server.url, await singleFilePackage('5d1b5c4e-0000-4000-8000-0000000a0b02'));
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      await waitCount('all', 4);
      assert.equal((await http(server.url, 'DELETE', `${V1}/${pkg.id}`)).status, 409);
      // A later change reaches "all" right after the onboarding: nothing came in between.
      const disable = await http(server.url, 'PATCH', `${V1}/${pkg.id}`, {
        body: { operationalState: 'DISABLED' },
      });
      assert.equal(disable.status, 200);
      await waitCount('all', 5);
      assert.deepEqual(kinds('all').slice(3), [
        'VnfPackageOnboardingNotification:',
        'VnfPackageChangeNotification:OP_STATE_CHANGE',
      ]);
    });

    test('deleting a subscription drops its undelivered notifications', async () => {
      // The "product" receiver now fails: its notifications wait in the outbox.
      receiver.behave((r: Received) => ({
        status: r.method === 'POST' && r.path === '/product' ? 503 : 204,
      }));
      const pkg = await onboard(server.url, await singleFilePackage('5d1b5c4e-0000-4000-8000-0000000a0b03'));
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      await waitCount('all', 6);
      const waiting = await outboxOf('product');
      assert.ok(waiting.length >= 1, 'the failing subscriber has undelivered notifications');
      assert.equal(
        (await http(server.url, 'DELETE', `/vnfpkgm/v1/subscriptions/${subs.product}`)).status,
        204,
      );
      assert.deepEqual(await outboxOf('product'), []);
    });
  });
}

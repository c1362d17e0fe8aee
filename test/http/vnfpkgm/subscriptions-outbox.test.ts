/**
 * Package notifications land in the outbox in the transaction of the change: onboarding
 * completed, operationalState changed, package deleted — one row per matching subscription of
 * the package's project, none for the others; rows stay pending (delivery is the engine's).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createSubscription } from '../../../src/notify/subscription-store.ts';
import { type Receiver, startReceiver } from '../../notify/subscriptions/receiver.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createPkg, onboard, putZip, singleFilePackage, V1, waitSettled } from './support.ts';

const VNFD_ID = '5d1b5c4e-0000-4000-8000-0000000a0b01';

interface Row {
  id: number | string;
  subscription_id: string;
  notification_id: string;
  api: string;
  major: string;
  notification_type: string;
  payload: string;
  state: string;
  attempts: number;
  last_error: string | null;
}

for (const dialect of DIALECTS) {
  describe(`package notifications in the outbox on ${dialect}`, () => {
    let server: TestServer;
    let receiver: Receiver;
    const subs: Record<string, string> = {};
    before(async () => {
      receiver = await startReceiver();
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, outbound: { allow: ['127.0.0.0/8'] } },
      });
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
        callbackUri: 'http://127.0.0.1:9/foreign',
      });
      subs.foreign = foreign.id;
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    const name = (id: string) => Object.entries(subs).find(([, v]) => v === id)?.[0];
    const rowsAfter = async (last: number): Promise<Row[]> =>
      (
        (await server.context.db.kysely
          .selectFrom('notification_outbox')
          .selectAll()
          .orderBy('id')
          .execute()) as Row[]
      ).filter((r) => Number(r.id) > last);
    const lastId = async () => {
      const rows = await rowsAfter(0);
      return rows.length ? Number(rows[rows.length - 1].id) : 0;
    };

    test('onboarding, disable and delete each write one pending row per matching subscription', async () => {
      // A failed onboarding notifies nobody.
      const bad = await createPkg(server.url);
      assert.equal((await putZip(server.url, bad.id, Buffer.from('not a zip'))).status, 202);
      assert.equal((await waitSettled(server.url, bad.id)).onboardingState, 'CREATED');
      assert.deepEqual(await rowsAfter(0), []);

      const pkg = await onboard(server.url, await singleFilePackage(VNFD_ID));
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      const onboarded = await rowsAfter(0);
      assert.deepEqual(onboarded.map((r) => name(r.subscription_id)).sort(), [
        'all',
        'onboardingOnly',
        'product',
      ]);
      for (const row of onboarded) {
        const payload = JSON.parse(row.payload);
        const major = row.subscription_id === subs.onboardingOnly ? 'v2' : 'v1';
        assert.equal(row.api, 'vnfpkgm');
        assert.equal(row.major, major);
        assert.equal(row.state, 'pending');
        assert.equal(row.attempts, 0);
        assert.equal(row.last_error, null);
        assert.equal(row.notification_type, 'VnfPackageOnboardingNotification');
        assert.equal(row.notification_id, payload.id);
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
        assert.equal(payload.subscriptionId, row.subscription_id);
        assert.equal(payload.vnfPkgId, pkg.id);
        assert.equal(payload.vnfdId, VNFD_ID);
        assert.deepEqual(payload._links, {
          vnfPackage: { href: `/vnfpkgm/${major}/vnf_packages/${pkg.id}` },
          subscription: { href: `/vnfpkgm/${major}/subscriptions/${row.subscription_id}` },
        });
      }
      // Each subscriber's copy has its own stable id.
      assert.equal(new Set(onboarded.map((r) => r.notification_id)).size, onboarded.length);

      // A userDefinedData-only change is not an operational state change.
      let mark = await lastId();
      const data = await http(server.url, 'PATCH', `${V1}/${pkg.id}`, {
        body: { userDefinedData: { k: 'v' } },
      });
      assert.equal(data.status, 200);
      assert.deepEqual(await rowsAfter(mark), []);

      // A refused change (already ENABLED) writes nothing either.
      const refused = await http(server.url, 'PATCH', `${V1}/${pkg.id}`, {
        body: { operationalState: 'ENABLED' },
      });
      assert.equal(refused.status, 409);
      assert.deepEqual(await rowsAfter(mark), []);

      const disable = await http(server.url, 'PATCH', `${V1}/${pkg.id}`, {
        body: { operationalState: 'DISABLED' },
      });
      assert.equal(disable.status, 200);
      const disabled = await rowsAfter(mark);
      assert.deepEqual(disabled.map((r) => name(r.subscription_id)).sort(), [
        'all',
        'disabledOnly',
        'product',
      ]);
      for (const row of disabled) {
        const payload = JSON.parse(row.payload);
        assert.equal(row.notification_type, 'VnfPackageChangeNotification');
        assert.equal(row.state, 'pending');
        assert.equal(payload.changeType, 'OP_STATE_CHANGE');
        assert.equal(payload.operationalState, 'DISABLED');
        assert.equal(payload.vnfPkgId, pkg.id);
        assert.equal(payload.vnfdId, VNFD_ID);
        assert.equal(payload.subscriptionId, row.subscription_id);
      }

      mark = await lastId();
      assert.equal((await http(server.url, 'DELETE', `${V1}/${pkg.id}`)).status, 204);
      const deleted = await rowsAfter(mark);
      assert.deepEqual(deleted.map((r) => name(r.subscription_id)).sort(), [
        'all',
        'disabledOnly',
        'product',
      ]);
      for (const row of deleted) {
        const payload = JSON.parse(row.payload);
        assert.equal(row.notification_type, 'VnfPackageChangeNotification');
        assert.equal(payload.changeType, 'PKG_DELETE');
        assert.equal(payload.vnfPkgId, pkg.id);
        assert.equal(payload.vnfdId, VNFD_ID);
        assert.equal('operationalState' in payload, false);
      }

      // Per subscriber, the rows are in the order the changes happened.
      const all = (await rowsAfter(0)).filter((r) => r.subscription_id === subs.all);
      assert.deepEqual(
        all.map((r) => JSON.parse(r.payload).changeType ?? 'ONBOARDED'),
        ['ONBOARDED', 'OP_STATE_CHANGE', 'PKG_DELETE'],
      );
      // Nothing for the other project, the other vnfdId or the other product.
      const everyone = new Set((await rowsAfter(0)).map((r) => name(r.subscription_id)));
      for (const never of ['foreign', 'otherVnfd', 'otherProduct']) assert.equal(everyone.has(never), false);
    });

    test('a refused delete (package ENABLED) writes no notification', async () => {
      const pkg = await onboard(server.url, await singleFilePackage('5d1b5c4e-0000-4000-8000-0000000a0b02'));
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      const mark = await lastId();
      assert.equal((await http(server.url, 'DELETE', `${V1}/${pkg.id}`)).status, 409);
      assert.deepEqual(await rowsAfter(mark), []);
    });

    test('deleting a subscription drops its pending notifications', async () => {
      const before = await rowsAfter(0);
      assert.ok(before.some((r) => r.subscription_id === subs.product));
      assert.equal(
        (await http(server.url, 'DELETE', `/vnfpkgm/v1/subscriptions/${subs.product}`)).status,
        204,
      );
      const rest = await rowsAfter(0);
      assert.equal(
        rest.some((r) => r.subscription_id === subs.product),
        false,
      );
      assert.ok(rest.some((r) => r.subscription_id === subs.all));
    });
  });
}

/** SOL005 PkgmNotificationsFilter against real notification subjects, one filter field at a time. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  matchesPackageFilter,
  type PackageNotificationSubject,
  type PkgmNotificationsFilter,
} from '../../src/notify/package-filter.ts';
import {
  packageDeleted,
  packageOnboarded,
  packageOperationalStateChanged,
} from '../../src/notify/package-notifications.ts';

const PKG = {
  vnfPkgId: '0b8f3a3e-1111-4000-8000-000000000001',
  vnfdId: 'b1bb0ce7-ebca-4fa7-95ed-4840d7000000',
  vnfProvider: 'Company',
  vnfProductName: 'Sample VNF',
  vnfSoftwareVersion: '1.0',
  vnfdVersion: '1.0',
  operationalState: 'ENABLED',
  usageState: 'NOT_IN_USE',
};

const onboarding: PackageNotificationSubject = {
  notificationType: 'VnfPackageOnboardingNotification',
  package: PKG,
};
const change: PackageNotificationSubject = { notificationType: 'VnfPackageChangeNotification', package: PKG };
const match = (filter: PkgmNotificationsFilter | undefined, subject = onboarding) =>
  matchesPackageFilter(filter, subject);

describe('package notification filter', () => {
  test('absent or empty filter, and empty lists, match everything', () => {
    assert.equal(match(undefined), true);
    assert.equal(match({}), true);
    assert.equal(match({ notificationTypes: [], vnfdId: [], vnfProductsFromProviders: [] }), true);
  });

  test('notificationTypes', () => {
    assert.equal(match({ notificationTypes: ['VnfPackageOnboardingNotification'] }), true);
    assert.equal(match({ notificationTypes: ['VnfPackageChangeNotification'] }), false);
    assert.equal(match({ notificationTypes: ['VnfPackageChangeNotification'] }, change), true);
    assert.equal(
      match(
        { notificationTypes: ['VnfPackageOnboardingNotification', 'VnfPackageChangeNotification'] },
        change,
      ),
      true,
    );
  });

  test('vnfdId and vnfPkgId: any of the listed ids', () => {
    assert.equal(match({ vnfdId: ['other', PKG.vnfdId] }), true);
    assert.equal(match({ vnfdId: ['other'] }), false);
    assert.equal(match({ vnfPkgId: [PKG.vnfPkgId] }), true);
    assert.equal(match({ vnfPkgId: ['0b8f3a3e-1111-4000-8000-000000000002'] }), false);
    // A package without a vnfdId (never onboarded) matches no vnfdId filter.
    const bare = { notificationType: 'VnfPackageChangeNotification', package: { vnfPkgId: PKG.vnfPkgId } };
    assert.equal(match({ vnfdId: [PKG.vnfdId] }, bare), false);
    assert.equal(match({ vnfPkgId: [PKG.vnfPkgId] }, bare), true);
  });

  test('operationalState and usageState', () => {
    assert.equal(match({ operationalState: ['ENABLED'] }), true);
    assert.equal(match({ operationalState: ['DISABLED'] }), false);
    assert.equal(match({ usageState: ['NOT_IN_USE'] }), true);
    assert.equal(match({ usageState: ['IN_USE'] }), false);
  });

  test('vnfProductsFromProviders: provider, product, software version, vnfd versions', () => {
    assert.equal(match({ vnfProductsFromProviders: [{ vnfProvider: 'Company' }] }), true);
    assert.equal(match({ vnfProductsFromProviders: [{ vnfProvider: 'Other' }] }), false);
    assert.equal(
      match({ vnfProductsFromProviders: [{ vnfProvider: 'Other' }, { vnfProvider: 'Company' }] }),
      true,
    );
    const product = (
      vnfProductName: string,
      versions?: { vnfSoftwareVersion: string; vnfdVersions?: string[] }[],
    ) => ({
      vnfProductsFromProviders: [{ vnfProvider: 'Company', vnfProducts: [{ vnfProductName, versions }] }],
    });
    assert.equal(match(product('Sample VNF')), true);
    assert.equal(match(product('Other VNF')), false);
    assert.equal(match(product('Sample VNF', [{ vnfSoftwareVersion: '1.0' }])), true);
    assert.equal(match(product('Sample VNF', [{ vnfSoftwareVersion: '2.0' }])), false);
    assert.equal(match(product('Sample VNF', [{ vnfSoftwareVersion: '1.0', vnfdVersions: ['1.0'] }])), true);
    assert.equal(match(product('Sample VNF', [{ vnfSoftwareVersion: '1.0', vnfdVersions: ['2.0'] }])), false);
    assert.equal(
      match(
        product('Sample VNF', [
          { vnfSoftwareVersion: '2.0' },
          { vnfSoftwareVersion: '1.0', vnfdVersions: ['0.9', '1.0'] },
        ]),
      ),
      true,
    );
    // The product must belong to the listed provider.
    assert.equal(
      match({
        vnfProductsFromProviders: [{ vnfProvider: 'Other', vnfProducts: [{ vnfProductName: 'Sample VNF' }] }],
      }),
      false,
    );
  });

  test('every present field must match (AND)', () => {
    assert.equal(match({ vnfdId: [PKG.vnfdId], operationalState: ['ENABLED'] }), true);
    assert.equal(match({ vnfdId: [PKG.vnfdId], operationalState: ['DISABLED'] }), false);
  });

  test('the notification builders match on what they carry and fill in the subscription', () => {
    const sub = { id: 'c0ffee00-0000-4000-8000-000000000001', major: 'v2' };
    const onboarded = packageOnboarded(PKG);
    assert.equal(onboarded.matches({ notificationTypes: ['VnfPackageOnboardingNotification'] }), true);
    assert.equal(onboarded.matches({ notificationTypes: ['VnfPackageChangeNotification'] }), false);
    const n = onboarded.build(sub) as unknown as Record<string, unknown>;
    assert.equal(n.notificationType, 'VnfPackageOnboardingNotification');
    assert.equal(n.subscriptionId, sub.id);
    assert.equal(n.vnfPkgId, PKG.vnfPkgId);
    assert.equal(n.vnfdId, PKG.vnfdId);
    assert.match(String(n.id), /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(String(n.timeStamp))));
    assert.deepEqual(n._links, {
      vnfPackage: { href: `/vnfpkgm/v2/vnf_packages/${PKG.vnfPkgId}` },
      subscription: { href: `/vnfpkgm/v2/subscriptions/${sub.id}` },
    });
    // Each subscription gets its own notification id.
    assert.notEqual(onboarded.build(sub).id, n.id);

    const disabled = packageOperationalStateChanged({ ...PKG, operationalState: 'DISABLED' });
    assert.equal(disabled.matches({ operationalState: ['DISABLED'] }), true);
    assert.equal(disabled.matches({ operationalState: ['ENABLED'] }), false);
    const c = disabled.build(sub) as unknown as Record<string, unknown>;
    assert.equal(c.changeType, 'OP_STATE_CHANGE');
    assert.equal(c.operationalState, 'DISABLED');

    const deleted = packageDeleted({ vnfPkgId: PKG.vnfPkgId, operationalState: 'DISABLED' }).build(
      sub,
    ) as unknown as Record<string, unknown>;
    assert.equal(deleted.changeType, 'PKG_DELETE');
    assert.equal('operationalState' in deleted, false);
    assert.equal('vnfdId' in deleted, false);
  });
});

/**
 * SOL005 package notifications (identical in v2.6.1 and v3.3.1): VnfPackageOnboardingNotification
 * and VnfPackageChangeNotification (OP_STATE_CHANGE, PKG_DELETE), built from the package as it is
 * after the change, and emitted through the outbox in the transaction of that change.
 *
 * Link hrefs are path-absolute URI references (`/vnfpkgm/v1/...`): the change may happen in a
 * worker with no request to take a host from; delivery resolves them against server.publicUrl.
 */
import type { Executor } from '../store/db/transaction.ts';
import { enqueueNotification, type PendingNotification } from './outbox.ts';
import { matchesPackageFilter, type PackageFacts, type PkgmNotificationsFilter } from './package-filter.ts';
import { pendingNotification, subscriptionLink } from './subscriptions/pending.ts';

export const PACKAGE_API = 'vnfpkgm';

export type PackageNotificationType = 'VnfPackageOnboardingNotification' | 'VnfPackageChangeNotification';
export type PackageChangeType = 'OP_STATE_CHANGE' | 'PKG_DELETE';

interface Links {
  vnfPackage: { href: string };
  subscription: { href: string };
}

export interface VnfPackageOnboardingNotification {
  id: string;
  notificationType: 'VnfPackageOnboardingNotification';
  subscriptionId: string;
  timeStamp: string;
  vnfPkgId: string;
  vnfdId?: string;
  _links: Links;
}

export interface VnfPackageChangeNotification {
  id: string;
  notificationType: 'VnfPackageChangeNotification';
  subscriptionId: string;
  timeStamp: string;
  vnfPkgId: string;
  vnfdId?: string;
  changeType: PackageChangeType;
  operationalState?: string;
  _links: Links;
}

function pending(
  notificationType: PackageNotificationType,
  pkg: PackageFacts,
  extra: Record<string, unknown>,
): PendingNotification {
  return pendingNotification({
    notificationType,
    matches: (filter) =>
      matchesPackageFilter(filter as PkgmNotificationsFilter, { notificationType, package: pkg }),
    fields: () => ({
      vnfPkgId: pkg.vnfPkgId,
      // Mandatory in SOL005, but a package deleted before it was ever onboarded has none.
      ...(pkg.vnfdId === undefined ? {} : { vnfdId: pkg.vnfdId }),
      ...extra,
    }),
    links: (target) => ({
      vnfPackage: { href: `/${PACKAGE_API}/${target.major}/vnf_packages/${pkg.vnfPkgId}` },
      subscription: subscriptionLink(PACKAGE_API, target),
    }),
  });
}

/** Onboarding completed (the package is ONBOARDED). */
export const packageOnboarded = (pkg: PackageFacts) => pending('VnfPackageOnboardingNotification', pkg, {});

/** operationalState changed to `pkg.operationalState`. */
export const packageOperationalStateChanged = (pkg: PackageFacts) =>
  pending('VnfPackageChangeNotification', pkg, {
    changeType: 'OP_STATE_CHANGE',
    operationalState: pkg.operationalState,
  });

/** The package was deleted. */
export const packageDeleted = (pkg: PackageFacts) =>
  pending('VnfPackageChangeNotification', pkg, { changeType: 'PKG_DELETE' });

/** Writes the notification's outbox rows for the project's vnfpkgm subscriptions, in `trx`. */
export function emitPackageNotification(
  trx: Executor,
  project: string,
  notification: PendingNotification,
): Promise<number> {
  return enqueueNotification(trx, { project, api: PACKAGE_API, notification });
}

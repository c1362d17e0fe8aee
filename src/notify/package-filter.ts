/**
 * SOL005 PkgmNotificationsFilter, matched against the real notification object. Every present
 * attribute must match (AND); inside a list, any entry (OR). An absent or empty filter matches all.
 */
import { type Static, Type } from '@sinclair/typebox';
import { type ProductFacts, productMatches, VnfProductsFromProvidersSchema } from './product-filter.ts';
import { listMatches } from './subscriptions/match.ts';
import { stringEnum } from './subscriptions/schema-helpers.ts';

export const PACKAGE_NOTIFICATION_TYPES = [
  'VnfPackageOnboardingNotification',
  'VnfPackageChangeNotification',
] as const;

const ids = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });

/** JSON schema of the filter (request validation and API documentation). */
export const PKGM_FILTER_SCHEMA = Type.Object(
  {
    notificationTypes: Type.Optional(Type.Array(stringEnum(PACKAGE_NOTIFICATION_TYPES))),
    vnfProductsFromProviders: Type.Optional(VnfProductsFromProvidersSchema),
    vnfdId: Type.Optional(ids('Match packages whose VNFD has one of these ids.')),
    vnfPkgId: Type.Optional(ids('Match these packages.')),
    operationalState: Type.Optional(Type.Array(stringEnum(['ENABLED', 'DISABLED'] as const))),
    usageState: Type.Optional(Type.Array(stringEnum(['IN_USE', 'NOT_IN_USE'] as const))),
  },
  { additionalProperties: false, description: 'SOL005 PkgmNotificationsFilter' },
);

export type PkgmNotificationsFilter = Static<typeof PKGM_FILTER_SCHEMA>;

/** What a package notification tells about its package (beyond the notification fields). */
export interface PackageFacts extends ProductFacts {
  vnfPkgId: string;
  vnfdId?: string;
  operationalState?: string;
  usageState?: string;
}

/** The notification and the package facts the filter may look at. */
export interface PackageNotificationSubject {
  notificationType: string;
  package: PackageFacts;
}

export function matchesPackageFilter(
  filter: PkgmNotificationsFilter | undefined,
  subject: PackageNotificationSubject,
): boolean {
  if (!filter) return true;
  const pkg = subject.package;
  return (
    listMatches(filter.notificationTypes, subject.notificationType) &&
    listMatches(filter.vnfdId, pkg.vnfdId) &&
    listMatches(filter.vnfPkgId, pkg.vnfPkgId) &&
    listMatches(filter.operationalState, pkg.operationalState) &&
    listMatches(filter.usageState, pkg.usageState) &&
    productMatches(filter.vnfProductsFromProviders, pkg)
  );
}

/**
 * SOL005 PkgmNotificationsFilter, matched against the real notification object. Every present
 * attribute must match (AND); inside a list, any entry (OR). An absent or empty filter matches all.
 */

export interface PkgmNotificationsFilter {
  notificationTypes?: string[];
  vnfProductsFromProviders?: {
    vnfProvider: string;
    vnfProducts?: {
      vnfProductName: string;
      versions?: { vnfSoftwareVersion: string; vnfdVersions?: string[] }[];
    }[];
  }[];
  vnfdId?: string[];
  vnfPkgId?: string[];
  operationalState?: string[];
  usageState?: string[];
}

/** What a package notification tells about its package (beyond the notification fields). */
export interface PackageFacts {
  vnfPkgId: string;
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  operationalState?: string;
  usageState?: string;
}

/** The notification and the package facts the filter may look at. */
export interface PackageNotificationSubject {
  notificationType: string;
  package: PackageFacts;
}

const listMatches = (wanted: string[] | undefined, actual: string | undefined) =>
  !wanted || wanted.length === 0 || (actual !== undefined && wanted.includes(actual));

function productMatches(
  providers: NonNullable<PkgmNotificationsFilter['vnfProductsFromProviders']>,
  pkg: PackageFacts,
): boolean {
  return providers.some((provider) => {
    if (provider.vnfProvider !== pkg.vnfProvider) return false;
    if (!provider.vnfProducts || provider.vnfProducts.length === 0) return true;
    return provider.vnfProducts.some((product) => {
      if (product.vnfProductName !== pkg.vnfProductName) return false;
      if (!product.versions || product.versions.length === 0) return true;
      return product.versions.some(
        (version) =>
          version.vnfSoftwareVersion === pkg.vnfSoftwareVersion &&
          listMatches(version.vnfdVersions, pkg.vnfdVersion),
      );
    });
  });
}

export function matchesPackageFilter(
  filter: PkgmNotificationsFilter | undefined,
  subject: PackageNotificationSubject,
): boolean {
  if (!filter) return true;
  const pkg = subject.package;
  if (!listMatches(filter.notificationTypes, subject.notificationType)) return false;
  if (!listMatches(filter.vnfdId, pkg.vnfdId)) return false;
  if (!listMatches(filter.vnfPkgId, pkg.vnfPkgId)) return false;
  if (!listMatches(filter.operationalState, pkg.operationalState)) return false;
  if (!listMatches(filter.usageState, pkg.usageState)) return false;
  const providers = filter.vnfProductsFromProviders;
  if (providers && providers.length > 0 && !productMatches(providers, pkg)) return false;
  return true;
}

const strings = { type: 'array', items: { type: 'string', minLength: 1 } } as const;

/** JSON schema of the filter (request validation). */
export const PKGM_FILTER_SCHEMA = {
  type: 'object',
  properties: {
    notificationTypes: {
      type: 'array',
      items: { type: 'string', enum: ['VnfPackageOnboardingNotification', 'VnfPackageChangeNotification'] },
    },
    vnfProductsFromProviders: {
      type: 'array',
      items: {
        type: 'object',
        required: ['vnfProvider'],
        properties: {
          vnfProvider: { type: 'string' },
          vnfProducts: {
            type: 'array',
            items: {
              type: 'object',
              required: ['vnfProductName'],
              properties: {
                vnfProductName: { type: 'string' },
                versions: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['vnfSoftwareVersion'],
                    properties: { vnfSoftwareVersion: { type: 'string' }, vnfdVersions: strings },
                    additionalProperties: false,
                  },
                },
              },
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    },
    vnfdId: strings,
    vnfPkgId: strings,
    operationalState: { type: 'array', items: { type: 'string', enum: ['ENABLED', 'DISABLED'] } },
    usageState: { type: 'array', items: { type: 'string', enum: ['IN_USE', 'NOT_IN_USE'] } },
  },
  additionalProperties: false,
} as const;

/**
 * Every subscription resource Bosun serves, one entry per API major: the data the generic
 * mechanism mounts (see definition.ts). Adding an API's subscriptions is adding a row here and
 * mounting it from the API's routes.
 */
import { FM_FILTER_SCHEMA, FM_NOTIFICATION_TYPES, fmFilterProblem } from '../fm-filter.ts';
import {
  LCM_FILTER_SCHEMA_V1,
  LCM_FILTER_SCHEMA_V2,
  LCM_NOTIFICATION_TYPES,
  lcmFilterProblem,
} from '../lcm-filter.ts';
import { PACKAGE_NOTIFICATION_TYPES, PKGM_FILTER_SCHEMA } from '../package-filter.ts';
import { PM_FILTER_SCHEMA, PM_NOTIFICATION_TYPES, pmFilterProblem } from '../pm-filter.ts';
import type { SubscriptionApi } from './definition.ts';

const pkgm = (major: string): SubscriptionApi => ({
  api: 'vnfpkgm',
  major,
  representation: 'PkgmSubscription',
  request: 'PkgmSubscriptionRequest',
  filterSchema: PKGM_FILTER_SCHEMA,
  notificationTypes: PACKAGE_NOTIFICATION_TYPES,
});

export const SUBSCRIPTION_APIS: readonly SubscriptionApi[] = [
  pkgm('v1'),
  pkgm('v2'),
  {
    api: 'vnflcm',
    major: 'v1',
    representation: 'LccnSubscription',
    request: 'LccnSubscriptionRequest',
    filterSchema: LCM_FILTER_SCHEMA_V1,
    filterProblem: lcmFilterProblem,
    notificationTypes: LCM_NOTIFICATION_TYPES,
  },
  {
    api: 'vnflcm',
    major: 'v2',
    representation: 'LccnSubscription',
    request: 'LccnSubscriptionRequest',
    filterSchema: LCM_FILTER_SCHEMA_V2,
    filterProblem: lcmFilterProblem,
    notificationTypes: LCM_NOTIFICATION_TYPES,
    verbosity: 'stored',
  },
  {
    api: 'vnffm',
    major: 'v1',
    representation: 'FmSubscription',
    request: 'FmSubscriptionRequest',
    filterSchema: FM_FILTER_SCHEMA,
    filterProblem: fmFilterProblem,
    notificationTypes: FM_NOTIFICATION_TYPES,
    // Tacker's FM accepts (and drops) verbosity; its clients may send it.
    verbosity: 'ignored',
  },
  {
    api: 'vnfpm',
    major: 'v2',
    representation: 'PmSubscription',
    request: 'PmSubscriptionRequest',
    filterSchema: PM_FILTER_SCHEMA,
    filterProblem: pmFilterProblem,
    notificationTypes: PM_NOTIFICATION_TYPES,
  },
];

/** The subscription resource of an API major; throws for one Bosun does not serve. */
export function subscriptionApi(api: string, major: string): SubscriptionApi {
  const found = SUBSCRIPTION_APIS.find((d) => d.api === api && d.major === major);
  if (!found) throw new Error(`no subscription resource for /${api}/${major}`);
  return found;
}

/**
 * /vnflcm/v1/subscriptions (SOL003 v2.6.1 LccnSubscription) and /vnflcm/v2/subscriptions
 * (v3.3.1, with verbosity) with the LifecycleChangeNotificationsFilter, over real HTTP on both
 * databases (see the shared suite).
 */
import { LCM } from '../../notify/subscriptions/etsi-schemas.ts';
import { type SubscriptionCase, subscriptionSuite } from '../../notify/subscriptions/http-suite.ts';

const FILTER = {
  vnfInstanceSubscriptionFilter: {
    vnfProductsFromProviders: [
      {
        vnfProvider: 'Company',
        vnfProducts: [
          { vnfProductName: 'Sample VNF', versions: [{ vnfSoftwareVersion: '1.0', vnfdVersions: ['1.0'] }] },
        ],
      },
    ],
    vnfInstanceNames: ['edge-router-1'],
  },
  notificationTypes: ['VnfLcmOperationOccurrenceNotification'],
  operationTypes: ['INSTANTIATE', 'SCALE'],
  operationStates: ['COMPLETED', 'FAILED_TEMP'],
};

const BAD_FILTERS = [
  {
    filter: { operationStates: ['DONE'] },
    message: /body\.filter\.operationStates\.0: must be one of STARTING, PROCESSING/,
  },
  { filter: { notificationTypes: ['AlarmNotification'] }, message: /notificationTypes\.0: must be one of/ },
  { filter: { vnfInstanceSubscriptionFilter: { vnfdId: ['x'] } }, message: /unknown property 'vnfdId'/ },
  {
    filter: {
      vnfInstanceSubscriptionFilter: { vnfdIds: ['a'], vnfProductsFromProviders: [{ vnfProvider: 'p' }] },
    },
    message: /Invalid filter: vnfdIds and vnfProductsFromProviders are alternatives: give only one of them/,
  },
  {
    filter: { vnfInstanceSubscriptionFilter: { vnfInstanceIds: ['a'], vnfInstanceNames: ['b'] } },
    message: /vnfInstanceIds and vnfInstanceNames are alternatives/,
  },
];

const lcm = (
  major: string,
  version: string | undefined,
  verbosity: 'stored' | 'refused',
): SubscriptionCase => ({
  api: 'vnflcm',
  major,
  version,
  representationSchema: `${LCM}/LccnSubscription.schema.json`,
  filter: FILTER,
  listAttribute: 'filter/vnfInstanceSubscriptionFilter/vnfInstanceIds',
  variant: (i) => ({ vnfInstanceSubscriptionFilter: { vnfInstanceIds: [`instance-${i}`] } }),
  listValue: (i) => `instance-${i}`,
  badFilters: [
    ...BAD_FILTERS,
    major === 'v1'
      ? // CHANGE_VNFPKG is not an operation of SOL003 v2.6.1.
        {
          filter: { operationTypes: ['CHANGE_VNFPKG'] },
          message: /operationTypes\.0: must be one of INSTANTIATE/,
        }
      : {
          filter: { operationTypes: ['REBOOT'] },
          message: /operationTypes\.0: must be one of .*CHANGE_VNFPKG/,
        },
  ],
  verbosity,
});

subscriptionSuite('vnflcm subscriptions', [lcm('v1', undefined, 'refused'), lcm('v2', '2.0.0', 'stored')]);

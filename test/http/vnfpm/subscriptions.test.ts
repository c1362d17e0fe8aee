/**
 * /vnfpm/v2/subscriptions (SOL003 v3.3.1 PmSubscription with the PmNotificationsFilter), over
 * real HTTP on both databases (see the shared suite).
 */
import { PM, pmNotificationTypesList } from '../../notify/subscriptions/etsi-schemas.ts';
import { subscriptionSuite } from '../../notify/subscriptions/http-suite.ts';

subscriptionSuite('vnfpm subscriptions', [
  {
    api: 'vnfpm',
    major: 'v2',
    version: '2.1.0',
    representationSchema: `${PM}/PmSubscription.schema.json`,
    schemaPatch: pmNotificationTypesList,
    filter: {
      vnfInstanceSubscriptionFilter: { vnfInstanceIds: ['6f3c1d2e-0000-4000-8000-00000000a001'] },
      notificationTypes: ['ThresholdCrossedNotification'],
    },
    listAttribute: 'filter/vnfInstanceSubscriptionFilter/vnfInstanceNames',
    variant: (i) => ({ vnfInstanceSubscriptionFilter: { vnfInstanceNames: [`vnf-${i}`] } }),
    listValue: (i) => `vnf-${i}`,
    badFilters: [
      {
        filter: { notificationTypes: ['AlarmNotification'] },
        message: /notificationTypes\.0: must be one of Performance/,
      },
      { filter: { perceivedSeverities: ['MAJOR'] }, message: /unknown property 'perceivedSeverities'/ },
      {
        filter: {
          vnfInstanceSubscriptionFilter: { vnfdIds: ['a'], vnfProductsFromProviders: [{ vnfProvider: 'p' }] },
        },
        message: /vnfdIds and vnfProductsFromProviders are alternatives/,
      },
    ],
    verbosity: 'refused',
  },
]);

/**
 * /vnffm/v1/subscriptions (SOL003 FmSubscription with the FmNotificationsFilter), over real HTTP
 * on both databases (see the shared suite).
 */
import { FM_API } from '../../notify/subscriptions/etsi-schemas.ts';
import { subscriptionSuite } from '../../notify/subscriptions/http-suite.ts';

subscriptionSuite('vnffm subscriptions', [
  {
    api: 'vnffm',
    major: 'v1',
    version: '1.3.0',
    representationSchema: `${FM_API}/FmSubscription.schema.json`,
    filter: {
      vnfInstanceSubscriptionFilter: { vnfdIds: ['b1bb0ce7-ebca-4fa7-95ed-4840d7000000'] },
      notificationTypes: ['AlarmNotification', 'AlarmClearedNotification'],
      faultyResourceTypes: ['COMPUTE'],
      perceivedSeverities: ['CRITICAL', 'MAJOR'],
      eventTypes: ['EQUIPMENT_ALARM'],
      probableCauses: ['host down'],
    },
    listAttribute: 'filter/probableCauses',
    variant: (i) => ({ probableCauses: [`cause ${i}`] }),
    listValue: (i) => `'cause ${i}'`,
    badFilters: [
      {
        filter: { faultyResourceTypes: ['CPU'] },
        message: /faultyResourceTypes\.0: must be one of COMPUTE, STORAGE, NETWORK/,
      },
      {
        filter: { perceivedSeverities: ['LOUD'] },
        message: /perceivedSeverities\.0: must be one of CRITICAL/,
      },
      { filter: { eventTypes: ['ALARM'] }, message: /eventTypes\.0: must be one of COMMUNICATIONS_ALARM/ },
      { filter: { operationTypes: ['INSTANTIATE'] }, message: /unknown property 'operationTypes'/ },
      {
        filter: { vnfInstanceSubscriptionFilter: { vnfInstanceIds: ['a'], vnfInstanceNames: ['b'] } },
        message: /vnfInstanceIds and vnfInstanceNames are alternatives/,
      },
    ],
    verbosity: 'ignored',
  },
]);

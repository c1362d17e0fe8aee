/**
 * The LCM, FM and PM notifications filters against real notification subjects: the shared
 * vnfInstanceSubscriptionFilter in every combination, then each API's own criteria.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { matchesFmFilter } from '../../../src/notify/fm-filter.ts';
import {
  type LcmNotificationSubject,
  lcmFilterProblem,
  matchesLcmFilter,
} from '../../../src/notify/lcm-filter.ts';
import { matchesPmFilter } from '../../../src/notify/pm-filter.ts';
import {
  matchesVnfInstanceFilter,
  type VnfInstanceFacts,
  type VnfInstanceSubscriptionFilter,
  vnfInstanceFilterProblem,
} from '../../../src/notify/vnf-instance-filter.ts';

const INSTANCE: VnfInstanceFacts = {
  vnfInstanceId: '6f3c1d2e-0000-4000-8000-00000000a001',
  vnfInstanceName: 'edge-router-1',
  vnfdId: 'b1bb0ce7-ebca-4fa7-95ed-4840d7000000',
  vnfProvider: 'Company',
  vnfProductName: 'Sample VNF',
  vnfSoftwareVersion: '1.0',
  vnfdVersion: '2.1',
};

const instanceMatches = (filter: VnfInstanceSubscriptionFilter | undefined, instance = INSTANCE) =>
  matchesVnfInstanceFilter(filter, instance);

describe('vnfInstanceSubscriptionFilter', () => {
  test('absent or empty filter, and empty lists, match every instance', () => {
    assert.equal(instanceMatches(undefined), true);
    assert.equal(instanceMatches({}), true);
    assert.equal(instanceMatches({ vnfdIds: [], vnfInstanceIds: [], vnfProductsFromProviders: [] }), true);
  });

  test('vnfdIds: any of the listed VNFDs', () => {
    assert.equal(instanceMatches({ vnfdIds: ['other', INSTANCE.vnfdId ?? ''] }), true);
    assert.equal(instanceMatches({ vnfdIds: ['other'] }), false);
    assert.equal(instanceMatches({ vnfdIds: [INSTANCE.vnfdId ?? ''] }, { vnfInstanceId: 'x' }), false);
  });

  test('vnfInstanceIds and vnfInstanceNames', () => {
    assert.equal(instanceMatches({ vnfInstanceIds: [INSTANCE.vnfInstanceId] }), true);
    assert.equal(instanceMatches({ vnfInstanceIds: ['6f3c1d2e-0000-4000-8000-00000000a002'] }), false);
    assert.equal(instanceMatches({ vnfInstanceNames: ['edge-router-2', 'edge-router-1'] }), true);
    assert.equal(instanceMatches({ vnfInstanceNames: ['edge-router-2'] }), false);
    // An instance without a name matches no name filter.
    assert.equal(
      instanceMatches({ vnfInstanceNames: ['edge-router-1'] }, { ...INSTANCE, vnfInstanceName: undefined }),
      false,
    );
  });

  test('vnfProductsFromProviders: provider, then product, then software version, then VNFD versions', () => {
    const provider = (vnfProducts?: unknown) =>
      instanceMatches({
        vnfProductsFromProviders: [
          { vnfProvider: 'Company', ...(vnfProducts ? { vnfProducts } : {}) },
        ] as VnfInstanceSubscriptionFilter['vnfProductsFromProviders'],
      });
    assert.equal(provider(), true);
    assert.equal(instanceMatches({ vnfProductsFromProviders: [{ vnfProvider: 'Other' }] }), false);
    assert.equal(provider([{ vnfProductName: 'Sample VNF' }]), true);
    assert.equal(provider([{ vnfProductName: 'Other VNF' }]), false);
    assert.equal(
      provider([{ vnfProductName: 'Sample VNF', versions: [{ vnfSoftwareVersion: '1.0' }] }]),
      true,
    );
    assert.equal(
      provider([{ vnfProductName: 'Sample VNF', versions: [{ vnfSoftwareVersion: '2.0' }] }]),
      false,
    );
    assert.equal(
      provider([
        {
          vnfProductName: 'Sample VNF',
          versions: [{ vnfSoftwareVersion: '1.0', vnfdVersions: ['2.0', '2.1'] }],
        },
      ]),
      true,
    );
    assert.equal(
      provider([
        { vnfProductName: 'Sample VNF', versions: [{ vnfSoftwareVersion: '1.0', vnfdVersions: ['2.0'] }] },
      ]),
      false,
    );
    // Any entry of each list (OR): the second provider, product or version may be the one.
    assert.equal(
      instanceMatches({
        vnfProductsFromProviders: [
          { vnfProvider: 'Other' },
          {
            vnfProvider: 'Company',
            vnfProducts: [
              { vnfProductName: 'Other VNF' },
              {
                vnfProductName: 'Sample VNF',
                versions: [
                  { vnfSoftwareVersion: '0.9' },
                  { vnfSoftwareVersion: '1.0', vnfdVersions: ['2.1'] },
                ],
              },
            ],
          },
        ],
      }),
      true,
    );
  });

  test('a VNFD criterion and an instance criterion together: both must match (AND)', () => {
    assert.equal(
      instanceMatches({ vnfdIds: [INSTANCE.vnfdId ?? ''], vnfInstanceNames: ['edge-router-1'] }),
      true,
    );
    assert.equal(instanceMatches({ vnfdIds: [INSTANCE.vnfdId ?? ''], vnfInstanceNames: ['other'] }), false);
    assert.equal(instanceMatches({ vnfdIds: ['other'], vnfInstanceIds: [INSTANCE.vnfInstanceId] }), false);
    assert.equal(
      instanceMatches({
        vnfProductsFromProviders: [{ vnfProvider: 'Company' }],
        vnfInstanceIds: [INSTANCE.vnfInstanceId],
      }),
      true,
    );
  });

  test('the alternatives of each pair may not be given together', () => {
    assert.equal(vnfInstanceFilterProblem({ vnfdIds: ['a'], vnfInstanceIds: ['b'] }), undefined);
    assert.match(
      vnfInstanceFilterProblem({ vnfdIds: ['a'], vnfProductsFromProviders: [{ vnfProvider: 'p' }] }) ?? '',
      /vnfdIds and vnfProductsFromProviders are alternatives/,
    );
    assert.match(
      vnfInstanceFilterProblem({ vnfInstanceIds: ['a'], vnfInstanceNames: ['b'] }) ?? '',
      /vnfInstanceIds and vnfInstanceNames are alternatives/,
    );
    assert.equal(lcmFilterProblem({ vnfInstanceSubscriptionFilter: { vnfInstanceIds: ['a'] } }), undefined);
    assert.ok(
      lcmFilterProblem({ vnfInstanceSubscriptionFilter: { vnfInstanceIds: ['a'], vnfInstanceNames: ['b'] } }),
    );
  });
});

describe('LifecycleChangeNotificationsFilter', () => {
  const opOcc: LcmNotificationSubject = {
    notificationType: 'VnfLcmOperationOccurrenceNotification',
    instance: INSTANCE,
    operation: 'INSTANTIATE',
    operationState: 'STARTING',
  };
  const creation: LcmNotificationSubject = {
    notificationType: 'VnfIdentifierCreationNotification',
    instance: INSTANCE,
  };

  test('absent filter matches everything', () => {
    assert.equal(matchesLcmFilter(undefined, opOcc), true);
    assert.equal(matchesLcmFilter({}, creation), true);
  });

  test('notificationTypes', () => {
    const types = { notificationTypes: ['VnfIdentifierCreationNotification'] } as const;
    assert.equal(matchesLcmFilter({ notificationTypes: [...types.notificationTypes] }, creation), true);
    assert.equal(matchesLcmFilter({ notificationTypes: [...types.notificationTypes] }, opOcc), false);
    assert.equal(
      matchesLcmFilter({ notificationTypes: ['VnfIdentifierDeletionNotification'] }, creation),
      false,
    );
  });

  test('operationTypes and operationStates select operation occurrence notifications', () => {
    assert.equal(matchesLcmFilter({ operationTypes: ['INSTANTIATE', 'TERMINATE'] }, opOcc), true);
    assert.equal(matchesLcmFilter({ operationTypes: ['SCALE'] }, opOcc), false);
    assert.equal(matchesLcmFilter({ operationStates: ['STARTING'] }, opOcc), true);
    assert.equal(matchesLcmFilter({ operationStates: ['COMPLETED', 'FAILED_TEMP'] }, opOcc), false);
    assert.equal(
      matchesLcmFilter({ operationTypes: ['INSTANTIATE'], operationStates: ['COMPLETED'] }, opOcc),
      false,
    );
    assert.equal(
      matchesLcmFilter(
        { operationTypes: ['INSTANTIATE'], operationStates: ['COMPLETED'] },
        { ...opOcc, operationState: 'COMPLETED' },
      ),
      true,
    );
  });

  test('operationTypes and operationStates do not apply to identifier notifications', () => {
    assert.equal(
      matchesLcmFilter({ operationTypes: ['SCALE'], operationStates: ['FAILED'] }, creation),
      true,
    );
    assert.equal(
      matchesLcmFilter(
        { notificationTypes: ['VnfLcmOperationOccurrenceNotification'], operationTypes: ['SCALE'] },
        creation,
      ),
      false,
    );
  });

  test('vnfInstanceSubscriptionFilter applies to every notification type', () => {
    const other = { vnfInstanceSubscriptionFilter: { vnfInstanceNames: ['other'] } };
    const mine = { vnfInstanceSubscriptionFilter: { vnfInstanceNames: ['edge-router-1'] } };
    assert.equal(matchesLcmFilter(other, opOcc), false);
    assert.equal(matchesLcmFilter(other, creation), false);
    assert.equal(matchesLcmFilter(mine, opOcc), true);
    assert.equal(matchesLcmFilter({ ...mine, operationTypes: ['HEAL'] }, opOcc), false);
  });
});

describe('FmNotificationsFilter', () => {
  const alarm = {
    faultyResourceType: 'COMPUTE',
    perceivedSeverity: 'MAJOR',
    eventType: 'EQUIPMENT_ALARM',
    probableCause: 'host down',
  };
  const raised = { notificationType: 'AlarmNotification', instance: INSTANCE, alarm } as const;
  const cleared = { notificationType: 'AlarmClearedNotification', instance: INSTANCE, alarm } as const;
  const rebuilt = { notificationType: 'AlarmListRebuiltNotification' } as const;

  test('each alarm criterion: any listed value', () => {
    assert.equal(matchesFmFilter({}, raised), true);
    assert.equal(matchesFmFilter({ faultyResourceTypes: ['STORAGE', 'COMPUTE'] }, raised), true);
    assert.equal(matchesFmFilter({ faultyResourceTypes: ['NETWORK'] }, raised), false);
    assert.equal(matchesFmFilter({ perceivedSeverities: ['MAJOR', 'CRITICAL'] }, raised), true);
    assert.equal(matchesFmFilter({ perceivedSeverities: ['MINOR'] }, raised), false);
    assert.equal(matchesFmFilter({ eventTypes: ['EQUIPMENT_ALARM'] }, raised), true);
    assert.equal(matchesFmFilter({ eventTypes: ['QOS_ALARM'] }, raised), false);
    assert.equal(matchesFmFilter({ probableCauses: ['host down'] }, raised), true);
    assert.equal(matchesFmFilter({ probableCauses: ['disk full'] }, raised), false);
    assert.equal(
      matchesFmFilter({ perceivedSeverities: ['MAJOR'], eventTypes: ['QOS_ALARM'] }, raised),
      false,
    );
  });

  test('notificationTypes, and the instance filter against the alarm’s VNF instance', () => {
    assert.equal(matchesFmFilter({ notificationTypes: ['AlarmClearedNotification'] }, cleared), true);
    assert.equal(matchesFmFilter({ notificationTypes: ['AlarmClearedNotification'] }, raised), false);
    assert.equal(
      matchesFmFilter(
        { vnfInstanceSubscriptionFilter: { vnfInstanceIds: [INSTANCE.vnfInstanceId] } },
        raised,
      ),
      true,
    );
    assert.equal(matchesFmFilter({ vnfInstanceSubscriptionFilter: { vnfdIds: ['other'] } }, cleared), false);
  });

  test('a criterion on what the notification does not carry does not apply', () => {
    // An alarm without a root-cause faulty resource.
    const bare = { ...raised, alarm: { ...alarm, faultyResourceType: undefined } };
    assert.equal(matchesFmFilter({ faultyResourceTypes: ['NETWORK'] }, bare), true);
    // AlarmListRebuiltNotification: no alarm, no instance.
    assert.equal(
      matchesFmFilter(
        {
          faultyResourceTypes: ['NETWORK'],
          perceivedSeverities: ['MINOR'],
          vnfInstanceSubscriptionFilter: { vnfInstanceIds: ['x'] },
        },
        rebuilt,
      ),
      true,
    );
    assert.equal(matchesFmFilter({ notificationTypes: ['AlarmNotification'] }, rebuilt), false);
  });
});

describe('PmNotificationsFilter', () => {
  const available = {
    notificationType: 'PerformanceInformationAvailableNotification',
    instance: INSTANCE,
  } as const;
  test('notificationTypes and the instance filter', () => {
    assert.equal(matchesPmFilter(undefined, available), true);
    assert.equal(
      matchesPmFilter({ notificationTypes: ['PerformanceInformationAvailableNotification'] }, available),
      true,
    );
    assert.equal(matchesPmFilter({ notificationTypes: ['ThresholdCrossedNotification'] }, available), false);
    assert.equal(
      matchesPmFilter(
        {
          vnfInstanceSubscriptionFilter: {
            vnfProductsFromProviders: [
              { vnfProvider: 'Company', vnfProducts: [{ vnfProductName: 'Sample VNF' }] },
            ],
          },
        },
        available,
      ),
      true,
    );
    assert.equal(
      matchesPmFilter({ vnfInstanceSubscriptionFilter: { vnfInstanceNames: ['x'] } }, available),
      false,
    );
  });
});

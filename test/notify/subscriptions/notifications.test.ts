/**
 * The LCM, FM and PM notification builders: each subscriber's copy has the shape of its API
 * major (validated with ETSI's SOL003 v2.6.1 schemas; v3.3.1 copies are supersets), its own id
 * and links, one timeStamp for all copies; START/RESULT and verbosity decide what is included.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  type LcmResultDetails,
  lcmOperationNotification,
  NOTIFICATION_STATUS,
  vnfIdentifierCreation,
  vnfIdentifierDeletion,
} from '../../../src/lcm/notifications.ts';
import {
  alarmClearedNotification,
  alarmListRebuiltNotification,
  alarmNotification,
} from '../../../src/notify/fm-notifications.ts';
import type { SubscriptionTarget } from '../../../src/notify/outbox.ts';
import { performanceInformationAvailable, thresholdCrossed } from '../../../src/notify/pm-notifications.ts';
import { assertEtsiValid, etsiValidator, FM, LCM, PM } from './etsi-schemas.ts';

const INSTANCE = {
  vnfInstanceId: '6f3c1d2e-0000-4000-8000-00000000a001',
  vnfInstanceName: 'edge-router-1',
  vnfdId: 'b1bb0ce7-ebca-4fa7-95ed-4840d7000000',
  vnfProvider: 'Company',
  vnfProductName: 'Sample VNF',
  vnfSoftwareVersion: '1.0',
  vnfdVersion: '1.0',
};
const OP_OCC_ID = '9a4f0c11-0000-4000-8000-00000000b001';
const V1: SubscriptionTarget = { id: '11111111-0000-4000-8000-000000000001', major: 'v1' };
const V2: SubscriptionTarget = { id: '22222222-0000-4000-8000-000000000002', major: 'v2', verbosity: 'FULL' };
const V2_SHORT: SubscriptionTarget = {
  id: '33333333-0000-4000-8000-000000000003',
  major: 'v2',
  verbosity: 'SHORT',
};

const DETAILS: LcmResultDetails = {
  affectedVnfcs: [
    {
      id: 'vnfc-1',
      vduId: 'VDU1',
      changeType: 'ADDED',
      computeResource: {
        vimConnectionId: 'vim-1',
        resourceId: 'server-1',
        vimLevelResourceType: 'OS::Nova::Server',
      },
    },
  ],
  affectedVirtualLinks: [
    {
      id: 'vl-1',
      vnfVirtualLinkDescId: 'internalVL1',
      changeType: 'ADDED',
      networkResource: { vimConnectionId: 'vim-1', resourceId: 'net-1' },
    },
  ],
  affectedExtLinkPorts: [
    { id: 'port-1', changeType: 'ADDED', extCpInstanceId: 'cp-1', resourceHandle: { resourceId: 'p' } },
  ],
  affectedVirtualStorages: [
    {
      id: 'st-1',
      virtualStorageDescId: 'VirtualStorage',
      changeType: 'ADDED',
      storageResource: { vimConnectionId: 'vim-1', resourceId: 'vol-1' },
    },
  ],
  changedInfo: { vnfInstanceName: 'renamed' },
  modificationsTriggeredByVnfPkgChange: { vnfdId: 'new-vnfd' },
  error: { status: 500, detail: 'the simulated VIM failed' },
};

type Payload = Record<string, unknown> & { _links: Record<string, { href: string }> };
const build = (pending: { build(t: SubscriptionTarget): unknown }, target: SubscriptionTarget) =>
  pending.build(target) as Payload;

describe('LCM notifications', () => {
  test('the ETSI schemas do refuse what is not a notification', () => {
    assert.equal(
      etsiValidator(`${LCM}/VnfLcmOperationOccurrenceNotification.schema.json`)({ id: 'x' }),
      false,
    );
    assert.equal(etsiValidator(`${FM}/alarmNotification.schema.json`)({ id: 'x' }), false);
  });

  test('START: no resource changes; v1 and v2 copies link their own major', () => {
    const pending = lcmOperationNotification({
      instance: INSTANCE,
      opOcc: {
        id: OP_OCC_ID,
        operation: 'INSTANTIATE',
        operationState: 'STARTING',
        isAutomaticInvocation: false,
      },
      details: DETAILS,
    });
    const v1 = build(pending, V1);
    const v2 = build(pending, V2);
    assertEtsiValid(`${LCM}/VnfLcmOperationOccurrenceNotification.schema.json`, v1, 'v1 START');
    assertEtsiValid(`${LCM}/VnfLcmOperationOccurrenceNotification.schema.json`, v2, 'v2 START');
    for (const copy of [v1, v2]) {
      assert.equal(copy.notificationType, 'VnfLcmOperationOccurrenceNotification');
      assert.equal(copy.notificationStatus, 'START');
      assert.equal(copy.operationState, 'STARTING');
      assert.equal(copy.operation, 'INSTANTIATE');
      assert.equal(copy.vnfInstanceId, INSTANCE.vnfInstanceId);
      assert.equal(copy.vnfLcmOpOccId, OP_OCC_ID);
      assert.equal(copy.isAutomaticInvocation, false);
      for (const absent of ['affectedVnfcs', 'changedInfo', 'error'])
        assert.equal(absent in copy, false, absent);
    }
    assert.deepEqual(v1._links, {
      vnfInstance: { href: `/vnflcm/v1/vnf_instances/${INSTANCE.vnfInstanceId}` },
      subscription: { href: `/vnflcm/v1/subscriptions/${V1.id}` },
      vnfLcmOpOcc: { href: `/vnflcm/v1/vnf_lcm_op_occs/${OP_OCC_ID}` },
    });
    assert.deepEqual(v2._links, {
      vnfInstance: { href: `/vnflcm/v2/vnf_instances/${INSTANCE.vnfInstanceId}` },
      subscription: { href: `/vnflcm/v2/subscriptions/${V2.id}` },
      vnfLcmOpOcc: { href: `/vnflcm/v2/vnf_lcm_op_occs/${OP_OCC_ID}` },
    });
    assert.equal(v1.subscriptionId, V1.id);
    assert.equal(v2.subscriptionId, V2.id);
    assert.equal('verbosity' in v1, false);
    assert.equal(v2.verbosity, 'FULL');
    assert.notEqual(v1.id, v2.id);
    assert.equal(v1.timeStamp, v2.timeStamp);
  });

  test('RESULT: each major gets the changes its version defines; SHORT gets none', () => {
    const pending = lcmOperationNotification({
      instance: INSTANCE,
      opOcc: { id: OP_OCC_ID, operation: 'SCALE', operationState: 'COMPLETED', isAutomaticInvocation: true },
      details: DETAILS,
    });
    const v1 = build(pending, V1);
    const v2 = build(pending, V2);
    const short = build(pending, V2_SHORT);
    for (const copy of [v1, v2, short]) {
      assertEtsiValid(`${LCM}/VnfLcmOperationOccurrenceNotification.schema.json`, copy);
      assert.equal(copy.notificationStatus, 'RESULT');
      assert.equal(copy.isAutomaticInvocation, true);
      // COMPLETED carries no error.
      assert.equal('error' in copy, false);
    }
    assert.deepEqual(v1.affectedVnfcs, DETAILS.affectedVnfcs);
    assert.deepEqual(v1.changedInfo, DETAILS.changedInfo);
    assert.equal('affectedExtLinkPorts' in v1, false);
    assert.equal('modificationsTriggeredByVnfPkgChange' in v1, false);
    assert.deepEqual(v2.affectedExtLinkPorts, DETAILS.affectedExtLinkPorts);
    assert.deepEqual(v2.modificationsTriggeredByVnfPkgChange, DETAILS.modificationsTriggeredByVnfPkgChange);
    assert.deepEqual(v2.affectedVirtualStorages, DETAILS.affectedVirtualStorages);
    assert.equal(short.verbosity, 'SHORT');
    for (const absent of ['affectedVnfcs', 'affectedVirtualLinks', 'affectedExtLinkPorts', 'changedInfo']) {
      assert.equal(absent in short, false, absent);
    }
  });

  test('error: with FAILED_TEMP and FAILED everywhere, with ROLLED_BACK in v2 only', () => {
    for (const state of ['FAILED_TEMP', 'FAILED'] as const) {
      const pending = lcmOperationNotification({
        instance: INSTANCE,
        opOcc: { id: OP_OCC_ID, operation: 'HEAL', operationState: state, isAutomaticInvocation: false },
        details: { error: DETAILS.error },
      });
      for (const target of [V1, V2, V2_SHORT]) {
        const copy = build(pending, target);
        assertEtsiValid(`${LCM}/VnfLcmOperationOccurrenceNotification.schema.json`, copy);
        assert.deepEqual(copy.error, DETAILS.error, `${state} ${target.major}`);
      }
    }
    const rolledBack = lcmOperationNotification({
      instance: INSTANCE,
      opOcc: {
        id: OP_OCC_ID,
        operation: 'INSTANTIATE',
        operationState: 'ROLLED_BACK',
        isAutomaticInvocation: false,
      },
      details: { error: DETAILS.error },
    });
    assert.equal('error' in build(rolledBack, V1), false);
    assert.deepEqual(build(rolledBack, V2).error, DETAILS.error);
  });

  test('START on STARTING, PROCESSING and ROLLING_BACK; RESULT otherwise; details may differ per major', () => {
    assert.deepEqual(
      Object.entries(NOTIFICATION_STATUS)
        .filter(([, s]) => s === 'START')
        .map(([state]) => state)
        .sort(),
      ['PROCESSING', 'ROLLING_BACK', 'STARTING'],
    );
    const pending = lcmOperationNotification({
      instance: INSTANCE,
      opOcc: {
        id: OP_OCC_ID,
        operation: 'MODIFY_INFO',
        operationState: 'COMPLETED',
        isAutomaticInvocation: false,
      },
      details: (major) => ({ changedInfo: { vnfInstanceName: `seen by ${major}` } }),
    });
    assert.deepEqual(build(pending, V1).changedInfo, { vnfInstanceName: 'seen by v1' });
    assert.deepEqual(build(pending, V2).changedInfo, { vnfInstanceName: 'seen by v2' });
  });

  test('identifier creation and deletion', () => {
    for (const [pending, type, schema] of [
      [
        vnfIdentifierCreation(INSTANCE),
        'VnfIdentifierCreationNotification',
        'VnfIdentifierCreationNotification',
      ],
      [
        vnfIdentifierDeletion(INSTANCE),
        'VnfIdentifierDeletionNotification',
        'vnfIdentifierDeletionNotification',
      ],
    ] as const) {
      for (const target of [V1, V2]) {
        const copy = build(pending, target);
        assertEtsiValid(`${LCM}/${schema}.schema.json`, copy, `${type} ${target.major}`);
        assert.deepEqual(Object.keys(copy).sort(), [
          '_links',
          'id',
          'notificationType',
          'subscriptionId',
          'timeStamp',
          'vnfInstanceId',
        ]);
        assert.equal(copy.notificationType, type);
        assert.deepEqual(copy._links, {
          vnfInstance: { href: `/vnflcm/${target.major}/vnf_instances/${INSTANCE.vnfInstanceId}` },
          subscription: { href: `/vnflcm/${target.major}/subscriptions/${target.id}` },
        });
      }
    }
  });
});

const FM_V1: SubscriptionTarget = { id: '44444444-0000-4000-8000-000000000004', major: 'v1' };
const ALARM = {
  id: 'c5a1a4d0-0000-4000-8000-00000000c001',
  managedObjectId: INSTANCE.vnfInstanceId,
  vnfcInstanceIds: ['vnfc-1'],
  rootCauseFaultyResource: {
    faultyResource: {
      vimConnectionId: 'vim-1',
      resourceId: 'server-1',
      vimLevelResourceType: 'OS::Nova::Server',
    },
    faultyResourceType: 'COMPUTE',
  },
  alarmRaisedTime: '2026-01-01T10:00:00.000Z',
  ackState: 'UNACKNOWLEDGED',
  perceivedSeverity: 'MAJOR',
  eventTime: '2026-01-01T09:59:58.000Z',
  eventType: 'EQUIPMENT_ALARM',
  probableCause: 'host down',
  isRootCause: true,
  _links: {
    self: { href: '/vnffm/v1/alarms/c5a1a4d0-0000-4000-8000-00000000c001' },
    objectInstance: { href: `/vnflcm/v2/vnf_instances/${INSTANCE.vnfInstanceId}` },
  },
};

describe('FM notifications', () => {
  test('AlarmNotification carries the alarm', () => {
    const copy = build(alarmNotification({ instance: INSTANCE, alarm: ALARM }), FM_V1);
    assertEtsiValid(`${FM}/alarmNotification.schema.json`, copy);
    assert.equal(copy.notificationType, 'AlarmNotification');
    assert.deepEqual(copy.alarm, ALARM);
    assert.deepEqual(copy._links, { subscription: { href: `/vnffm/v1/subscriptions/${FM_V1.id}` } });
  });

  test('AlarmClearedNotification names the alarm and when it was cleared', () => {
    const cleared = { ...ALARM, perceivedSeverity: 'CLEARED', alarmClearedTime: '2026-01-01T11:00:00.000Z' };
    const copy = build(alarmClearedNotification({ instance: INSTANCE, alarm: cleared }), FM_V1);
    assertEtsiValid(`${FM}/alarmClearedNotification.schema.json`, copy);
    assert.equal(copy.alarmId, ALARM.id);
    assert.equal(copy.alarmClearedTime, '2026-01-01T11:00:00.000Z');
    assert.deepEqual(copy._links, {
      subscription: { href: `/vnffm/v1/subscriptions/${FM_V1.id}` },
      alarm: { href: `/vnffm/v1/alarms/${ALARM.id}` },
    });
  });

  test('AlarmListRebuiltNotification links the alarm list', () => {
    const copy = build(alarmListRebuiltNotification(), FM_V1);
    assertEtsiValid(`${FM}/alarmListRebuiltNotification.schema.json`, copy);
    assert.deepEqual(copy._links, {
      subscription: { href: `/vnffm/v1/subscriptions/${FM_V1.id}` },
      alarms: { href: '/vnffm/v1/alarms' },
    });
  });

  test('the filter is matched against the alarm and its instance', () => {
    const pending = alarmNotification({ instance: INSTANCE, alarm: ALARM });
    assert.equal(pending.matches({ perceivedSeverities: ['MAJOR'], faultyResourceTypes: ['COMPUTE'] }), true);
    assert.equal(pending.matches({ eventTypes: ['QOS_ALARM'] }), false);
    assert.equal(
      pending.matches({ vnfInstanceSubscriptionFilter: { vnfInstanceNames: ['edge-router-1'] } }),
      true,
    );
    assert.equal(pending.matches({ notificationTypes: ['AlarmClearedNotification'] }), false);
  });
});

const PM_V2: SubscriptionTarget = { id: '55555555-0000-4000-8000-000000000005', major: 'v2' };

describe('PM notifications', () => {
  test('PerformanceInformationAvailableNotification', () => {
    const copy = build(
      performanceInformationAvailable({
        instance: INSTANCE,
        pmJobId: 'job-1',
        reportId: 'report-1',
        objectType: 'Vnf',
      }),
      PM_V2,
    );
    assertEtsiValid(`${PM}/PerformanceInformationAvailableNotification.schema.json`, copy);
    assert.equal(copy.pmJobId, 'job-1');
    assert.equal(copy.objectType, 'Vnf');
    assert.equal(copy.objectInstanceId, INSTANCE.vnfInstanceId);
    assert.equal('subObjectInstanceIds' in copy, false);
    assert.deepEqual(copy._links, {
      subscription: { href: `/vnfpm/v2/subscriptions/${PM_V2.id}` },
      objectInstance: { href: `/vnflcm/v2/vnf_instances/${INSTANCE.vnfInstanceId}` },
      pmJob: { href: '/vnfpm/v2/pm_jobs/job-1' },
      performanceReport: { href: '/vnfpm/v2/pm_jobs/job-1/reports/report-1' },
    });
  });

  test('ThresholdCrossedNotification', () => {
    const pending = thresholdCrossed({
      instance: INSTANCE,
      thresholdId: 'th-1',
      crossingDirection: 'UP',
      objectType: 'Vnfc',
      subObjectInstanceId: 'vnfc-1',
      performanceMetric: 'VCpuUsageMeanVnf.vnfc-1',
      // An object, as the v2.6.1 schema wants it (v3.3.1 allows any JSON value).
      performanceValue: { value: 91.5 },
    });
    const copy = build(pending, PM_V2);
    assertEtsiValid(`${PM}/ThresholdCrossedNotification.schema.json`, copy);
    assert.equal(copy.crossingDirection, 'UP');
    assert.equal(copy.subObjectInstanceId, 'vnfc-1');
    assert.deepEqual(copy._links.threshold, { href: '/vnfpm/v2/thresholds/th-1' });
    assert.equal(pending.matches({ notificationTypes: ['ThresholdCrossedNotification'] }), true);
    assert.equal(
      pending.matches({ notificationTypes: ['PerformanceInformationAvailableNotification'] }),
      false,
    );
  });
});

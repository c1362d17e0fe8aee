/**
 * The one-call emit functions of LCM, FM and PM on a real database (SQLite and PostgreSQL): one
 * outbox row per matching subscription of the project — the right major's representation, the
 * subscription's verbosity — written in the caller's transaction and rolled back with it. (An
 * API-only server: no delivery worker touches the rows.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  emitLcmOperationNotification,
  emitVnfIdentifierCreation,
  emitVnfIdentifierDeletion,
} from '../../../src/lcm/notifications.ts';
import {
  emitAlarmCleared,
  emitAlarmListRebuilt,
  emitAlarmNotification,
} from '../../../src/notify/fm-notifications.ts';
import {
  emitPerformanceInformationAvailable,
  emitThresholdCrossed,
} from '../../../src/notify/pm-notifications.ts';
import { createSubscription } from '../../../src/notify/subscription-store.ts';
import { inTransaction } from '../../../src/store/db/transaction.ts';
import { DIALECTS } from '../../support/databases.ts';
import type { TestServer } from '../../support/server.ts';
import { startApiServer } from './support.ts';

const INSTANCE = {
  vnfInstanceId: '6f3c1d2e-0000-4000-8000-00000000a001',
  vnfInstanceName: 'edge-router-1',
  vnfdId: 'vnfd-1',
  vnfProvider: 'Company',
  vnfProductName: 'Sample VNF',
  vnfSoftwareVersion: '1.0',
  vnfdVersion: '1.0',
};
const OP_OCC = {
  id: '9a4f0c11-0000-4000-8000-00000000b001',
  operation: 'INSTANTIATE',
  isAutomaticInvocation: false,
} as const;
const ALARM = {
  id: 'c5a1a4d0-0000-4000-8000-00000000c001',
  managedObjectId: INSTANCE.vnfInstanceId,
  rootCauseFaultyResource: { faultyResource: { resourceId: 's' }, faultyResourceType: 'COMPUTE' },
  perceivedSeverity: 'CRITICAL',
  eventType: 'EQUIPMENT_ALARM',
  probableCause: 'host down',
};

interface Row {
  subscription_id: string;
  api: string;
  major: string;
  notification_type: string;
  notification_id: string;
  payload: string;
  state: string;
}

for (const dialect of DIALECTS) {
  describe(`emitting LCM, FM and PM notifications on ${dialect}`, () => {
    let server: TestServer;
    const subs: Record<string, string> = {};
    before(async () => {
      server = await startApiServer(dialect);
      const { db, box } = server.context;
      const add = async (
        name: string,
        api: string,
        major: string,
        filter?: Record<string, unknown>,
        extra: { projectId?: string; verbosity?: string } = {},
      ) => {
        const record = await createSubscription(db.kysely, box, {
          projectId: extra.projectId ?? 'p1',
          api,
          major,
          callbackUri: `http://127.0.0.1:1/${name}`,
          filter,
          ...(extra.verbosity ? { verbosity: extra.verbosity } : {}),
        });
        subs[name] = record.id;
      };
      await add('lcmV1All', 'vnflcm', 'v1');
      await add('lcmV2Full', 'vnflcm', 'v2', undefined, { verbosity: 'FULL' });
      await add('lcmV2Short', 'vnflcm', 'v2', { operationStates: ['COMPLETED'] }, { verbosity: 'SHORT' });
      await add('lcmV1Creation', 'vnflcm', 'v1', {
        notificationTypes: ['VnfIdentifierCreationNotification'],
      });
      await add('lcmOtherInstance', 'vnflcm', 'v2', {
        vnfInstanceSubscriptionFilter: { vnfInstanceNames: ['another-one'] },
      });
      await add('lcmOtherProject', 'vnflcm', 'v2', undefined, { projectId: 'p2' });
      await add('fmAll', 'vnffm', 'v1');
      await add('fmMinorOnly', 'vnffm', 'v1', { perceivedSeverities: ['MINOR'] });
      await add('fmProduct', 'vnffm', 'v1', {
        vnfInstanceSubscriptionFilter: { vnfProductsFromProviders: [{ vnfProvider: 'Company' }] },
      });
      await add('pmAll', 'vnfpm', 'v2');
      await add('pmThresholds', 'vnfpm', 'v2', { notificationTypes: ['ThresholdCrossedNotification'] });
      await add('pkgm', 'vnfpkgm', 'v1');
    });
    after(() => server.close());

    const name = (id: string) => Object.entries(subs).find(([, v]) => v === id)?.[0];
    let seen = 0;
    /** Rows written since the last call. */
    const newRows = async (): Promise<Row[]> => {
      const rows = (await server.context.db.kysely
        .selectFrom('notification_outbox')
        .selectAll()
        .orderBy('id')
        .execute()) as unknown as Row[];
      const fresh = rows.slice(seen);
      seen = rows.length;
      return fresh;
    };
    const who = (rows: Row[]) => rows.map((r) => name(r.subscription_id)).sort();
    const payloadOf = (rows: Row[], sub: string) =>
      JSON.parse(rows.find((r) => r.subscription_id === subs[sub])?.payload ?? 'null');

    test('rolled back with the caller’s transaction', async () => {
      await assert.rejects(
        inTransaction(server.context.db, async (trx) => {
          const written = await emitVnfIdentifierCreation(trx, { project: 'p1', instance: INSTANCE });
          assert.equal(written, 4);
          throw new Error('the instance could not be created');
        }),
        /could not be created/,
      );
      assert.deepEqual(await newRows(), []);
    });

    test('identifier creation: every LCM subscriber of the project whose filter matches, each its major', async () => {
      await inTransaction(server.context.db, (trx) =>
        emitVnfIdentifierCreation(trx, { project: 'p1', instance: INSTANCE }),
      );
      const rows = await newRows();
      // lcmV2Short's operationStates does not apply to identifier notifications.
      assert.deepEqual(who(rows), ['lcmV1All', 'lcmV1Creation', 'lcmV2Full', 'lcmV2Short']);
      for (const row of rows) {
        const payload = JSON.parse(row.payload);
        assert.equal(row.api, 'vnflcm');
        assert.equal(row.state, 'pending');
        assert.equal(row.notification_type, 'VnfIdentifierCreationNotification');
        assert.equal(row.notification_id, payload.id);
        assert.equal(payload.subscriptionId, row.subscription_id);
        assert.equal(
          payload._links.vnfInstance.href,
          `/vnflcm/${row.major}/vnf_instances/${INSTANCE.vnfInstanceId}`,
        );
      }
      assert.equal(rows.find((r) => r.subscription_id === subs.lcmV1All)?.major, 'v1');
      assert.equal(rows.find((r) => r.subscription_id === subs.lcmV2Full)?.major, 'v2');
    });

    test('operation occurrences: filters on state, verbosity from the subscription, majors restriction', async () => {
      await inTransaction(server.context.db, (trx) =>
        emitLcmOperationNotification(trx, {
          project: 'p1',
          instance: INSTANCE,
          opOcc: { ...OP_OCC, operationState: 'STARTING' },
        }),
      );
      let rows = await newRows();
      assert.deepEqual(who(rows), ['lcmV1All', 'lcmV2Full']);
      assert.equal(payloadOf(rows, 'lcmV2Full').notificationStatus, 'START');

      const details = {
        affectedVnfcs: [
          { id: 'c1', vduId: 'VDU1', changeType: 'ADDED', computeResource: { resourceId: 's' } },
        ],
      };
      await inTransaction(server.context.db, (trx) =>
        emitLcmOperationNotification(trx, {
          project: 'p1',
          instance: INSTANCE,
          opOcc: { ...OP_OCC, operationState: 'COMPLETED' },
          details,
        }),
      );
      rows = await newRows();
      assert.deepEqual(who(rows), ['lcmV1All', 'lcmV2Full', 'lcmV2Short']);
      assert.deepEqual(payloadOf(rows, 'lcmV2Full').affectedVnfcs, details.affectedVnfcs);
      assert.equal(payloadOf(rows, 'lcmV2Full').verbosity, 'FULL');
      assert.equal(payloadOf(rows, 'lcmV2Short').verbosity, 'SHORT');
      assert.equal('affectedVnfcs' in payloadOf(rows, 'lcmV2Short'), false);
      assert.deepEqual(payloadOf(rows, 'lcmV1All').affectedVnfcs, details.affectedVnfcs);

      // A v2-only instance: its notifications reach v2 subscribers only.
      await inTransaction(server.context.db, (trx) =>
        emitVnfIdentifierDeletion(trx, { project: 'p1', instance: INSTANCE, majors: ['v2'] }),
      );
      rows = await newRows();
      assert.deepEqual(who(rows), ['lcmV2Full', 'lcmV2Short']);
      assert.ok(rows.every((r) => r.notification_type === 'VnfIdentifierDeletionNotification'));
    });

    test('FM: alarm raised, cleared, list rebuilt', async () => {
      await inTransaction(server.context.db, (trx) =>
        emitAlarmNotification(trx, { project: 'p1', instance: INSTANCE, alarm: ALARM }),
      );
      let rows = await newRows();
      assert.deepEqual(who(rows), ['fmAll', 'fmProduct']);
      assert.deepEqual(payloadOf(rows, 'fmAll').alarm, ALARM);
      assert.ok(rows.every((r) => r.api === 'vnffm' && r.major === 'v1'));

      await inTransaction(server.context.db, (trx) =>
        emitAlarmCleared(trx, {
          project: 'p1',
          instance: INSTANCE,
          alarm: { ...ALARM, perceivedSeverity: 'MINOR', alarmClearedTime: '2026-01-01T11:00:00.000Z' },
        }),
      );
      rows = await newRows();
      assert.deepEqual(who(rows), ['fmAll', 'fmMinorOnly', 'fmProduct']);
      assert.equal(payloadOf(rows, 'fmMinorOnly').alarmClearedTime, '2026-01-01T11:00:00.000Z');

      await inTransaction(server.context.db, (trx) => emitAlarmListRebuilt(trx, { project: 'p1' }));
      rows = await newRows();
      assert.deepEqual(who(rows), ['fmAll', 'fmMinorOnly', 'fmProduct']);
      assert.ok(rows.every((r) => r.notification_type === 'AlarmListRebuiltNotification'));
    });

    test('PM: performance information and threshold crossing', async () => {
      await inTransaction(server.context.db, (trx) =>
        emitPerformanceInformationAvailable(trx, {
          project: 'p1',
          instance: INSTANCE,
          pmJobId: 'job-1',
          reportId: 'r-1',
          objectType: 'Vnf',
        }),
      );
      let rows = await newRows();
      assert.deepEqual(who(rows), ['pmAll']);
      await inTransaction(server.context.db, (trx) =>
        emitThresholdCrossed(trx, {
          project: 'p1',
          instance: INSTANCE,
          thresholdId: 'th-1',
          crossingDirection: 'DOWN',
          objectType: 'Vnf',
          performanceMetric: 'VCpuUsageMeanVnf',
          performanceValue: 12,
        }),
      );
      rows = await newRows();
      assert.deepEqual(who(rows), ['pmAll', 'pmThresholds']);
      assert.equal(payloadOf(rows, 'pmThresholds').performanceValue, 12);
      // Nothing ever reached the other project, the other instance's filter or the package API.
      const everyone = new Set(
        (
          await server.context.db.kysely.selectFrom('notification_outbox').select('subscription_id').execute()
        ).map((r) => name(r.subscription_id)),
      );
      for (const never of ['lcmOtherInstance', 'lcmOtherProject', 'pkgm'])
        assert.equal(everyone.has(never), false);
    });
  });
}

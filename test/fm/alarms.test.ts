/**
 * The alarm domain on a real database (SQLite and PostgreSQL): raising deduplicates by
 * fingerprint, clearing, acknowledging and escalating change the alarm with compare-and-set, and
 * each change writes exactly its notifications to the outbox, matched on the FM filter, in its
 * own transaction.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ackAlarm,
  type ClearSelector,
  clearAlarm,
  clearAlarms,
  escalateAlarm,
  findAlarm,
  raiseAlarm,
  raiseAlarms,
  raiseAlarmsIn,
} from '../../src/fm/index.ts';
import { ApiError } from '../../src/sol/problem.ts';
import type { Database } from '../../src/store/db/database.ts';
import { inTransaction } from '../../src/store/db/transaction.ts';
import { DIALECTS } from '../support/databases.ts';
import { addFmSubscription, addInstance, freshDatabase, outboxReader, serverDown } from './support.ts';

const status = (code: number, pattern?: RegExp) => (error: unknown) => {
  assert.ok(error instanceof ApiError, String(error));
  assert.equal(error.status, code, error.message);
  if (pattern) assert.match(error.message, pattern);
  return true;
};

for (const dialect of DIALECTS) {
  describe(`alarm domain on ${dialect}`, () => {
    let db: Database;
    let instance: string;
    let subs: Record<string, string>;
    let newRows: ReturnType<typeof outboxReader>;
    before(async () => {
      db = await freshDatabase(dialect);
      instance = await addInstance(db, { name: 'edge-1', vnfdId: 'vnfd-edge' });
      subs = {
        all: await addFmSubscription(db),
        byInstance: await addFmSubscription(db, {
          vnfInstanceSubscriptionFilter: { vnfInstanceIds: [instance] },
        }),
        byVnfd: await addFmSubscription(db, { vnfInstanceSubscriptionFilter: { vnfdIds: ['vnfd-edge'] } }),
        otherInstance: await addFmSubscription(db, {
          vnfInstanceSubscriptionFilter: { vnfInstanceNames: ['another'] },
        }),
        minorOnly: await addFmSubscription(db, { perceivedSeverities: ['MINOR'] }),
        storageOnly: await addFmSubscription(db, { faultyResourceTypes: ['STORAGE'] }),
        qosOnly: await addFmSubscription(db, { eventTypes: ['QOS_ALARM'] }),
        otherCause: await addFmSubscription(db, { probableCauses: ['disk full'] }),
        clearedOnly: await addFmSubscription(db, { notificationTypes: ['AlarmClearedNotification'] }),
        rebuiltOnly: await addFmSubscription(db, { notificationTypes: ['AlarmListRebuiltNotification'] }),
        otherProject: await addFmSubscription(db, undefined, 'p2'),
      };
      newRows = outboxReader(db);
    });
    after(() => db.close());

    const who = (rows: { subscriptionId: string }[]) =>
      rows.map((r) => Object.entries(subs).find(([, id]) => id === r.subscriptionId)?.[0]).sort();

    test('raising an alarm stores it UNACKNOWLEDGED and notifies the matching subscribers of its project', async () => {
      const { change, alarm } = await raiseAlarm(db, serverDown(instance));
      assert.equal(change, 'raised');
      assert.equal(alarm.ackState, 'UNACKNOWLEDGED');
      assert.equal(alarm.projectId, 'p1');
      assert.equal(alarm.version, 1);
      const rows = await newRows();
      assert.deepEqual(who(rows), ['all', 'byInstance', 'byVnfd']);
      const payload = rows[0].payload as { notificationType: string; alarm: Record<string, unknown> };
      assert.equal(payload.notificationType, 'AlarmNotification');
      assert.equal(payload.alarm.id, alarm.id);
      assert.equal(payload.alarm.perceivedSeverity, 'CRITICAL');
      assert.deepEqual(payload.alarm.vnfcInstanceIds, ['VDU1-0']);
      assert.deepEqual(payload.alarm._links, {
        self: { href: `/vnffm/v1/alarms/${alarm.id}` },
        objectInstance: { href: `/vnflcm/v2/vnf_instances/${instance}` },
      });
    });

    test('the same fingerprint raised again updates the open alarm: quiet when nothing changed, notified when it did', async () => {
      const first = await raiseAlarm(db, serverDown(instance));
      assert.equal(first.change, 'unchanged');
      assert.deepEqual(await newRows(), []);

      const worse = await raiseAlarm(
        db,
        serverDown(instance, { perceivedSeverity: 'MINOR', faultDetails: ['flapping'] }),
      );
      assert.equal(worse.change, 'updated');
      assert.equal(worse.alarm.id, first.alarm.id);
      assert.equal(worse.alarm.version, 2);
      assert.ok(worse.alarm.alarmChangedTime);
      assert.deepEqual(worse.alarm.faultDetails, ['flapping']);
      assert.deepEqual(who(await newRows()), ['all', 'byInstance', 'byVnfd', 'minorOnly']);
      const open = await db.kysely
        .selectFrom('alarms')
        .select('id')
        .where('alarm_cleared_time', 'is', null)
        .execute();
      assert.equal(open.length, 1);
    });

    test('clearing by fingerprint sends AlarmClearedNotification; the same fault firing again opens a new alarm', async () => {
      const cleared = await clearAlarm(db, {
        managedObjectId: instance,
        fingerprint: serverDown(instance).fingerprint,
        clearedTime: '2026-11-25T10:00:00Z',
      });
      assert.ok(cleared);
      assert.equal(cleared.alarmClearedTime, '2026-11-25T10:00:00.000Z');
      const rows = await newRows();
      assert.deepEqual(who(rows), ['all', 'byInstance', 'byVnfd', 'clearedOnly', 'minorOnly']);
      const payload = rows[0].payload as Record<string, unknown>;
      assert.equal(payload.notificationType, 'AlarmClearedNotification');
      assert.equal(payload.alarmId, cleared.id);
      assert.equal(payload.alarmClearedTime, '2026-11-25T10:00:00.000Z');
      assert.deepEqual((payload._links as Record<string, unknown>).alarm, {
        href: `/vnffm/v1/alarms/${cleared.id}`,
      });

      assert.equal(
        await clearAlarm(db, { id: cleared.id }),
        undefined,
        'a cleared alarm is not cleared twice',
      );
      assert.deepEqual(await newRows(), []);

      const again = await raiseAlarm(db, serverDown(instance));
      assert.equal(again.change, 'raised');
      assert.notEqual(again.alarm.id, cleared.id);
      assert.equal((await findAlarm(db.kysely, cleared.id))?.alarmClearedTime, '2026-11-25T10:00:00.000Z');
      await newRows();
    });

    test('a batch applies every valid input in one transaction and reports each refused one', async () => {
      const outcomes = await raiseAlarms(db, [
        serverDown(instance, { fingerprint: 'batch-1' }),
        serverDown('no-such-instance', { fingerprint: 'batch-2' }),
        { ...serverDown(instance, { fingerprint: 'batch-3' }), perceivedSeverity: 'HUGE' },
        serverDown(instance, { fingerprint: 'batch-4', eventType: 'QOS_ALARM' }),
      ]);
      assert.deepEqual(
        outcomes.map((o) => (o.ok ? o.change : 'refused')),
        ['raised', 'refused', 'refused', 'raised'],
      );
      assert.ok(!outcomes[1].ok && /no-such-instance does not exist/.test(outcomes[1].problem));
      assert.ok(
        !outcomes[2].ok && /perceivedSeverity: must be one of CRITICAL, MAJOR/.test(outcomes[2].problem),
      );
      assert.deepEqual(who(await newRows()), [
        'all',
        'all',
        'byInstance',
        'byInstance',
        'byVnfd',
        'byVnfd',
        'qosOnly',
      ]);
    });

    test('one fingerprint repeated in a batch opens one alarm with its last statement and one notification', async () => {
      const outcomes = await raiseAlarms(db, [
        serverDown(instance, { fingerprint: 'twice' }),
        serverDown(instance, { fingerprint: 'twice' }),
        serverDown(instance, { fingerprint: 'twice', perceivedSeverity: 'MAJOR' }),
      ]);
      assert.deepEqual(
        outcomes.map((o) => o.ok && o.change),
        ['raised', 'unchanged', 'updated'],
      );
      const ids = new Set(outcomes.map((o) => o.ok && o.alarm.id));
      assert.equal(ids.size, 1);
      const rows = await newRows();
      assert.deepEqual(who(rows), ['all', 'byInstance', 'byVnfd']);
      assert.equal((rows[0].payload.alarm as { perceivedSeverity: string }).perceivedSeverity, 'MAJOR');

      const again = await raiseAlarms(db, [
        serverDown(instance, { fingerprint: 'twice', perceivedSeverity: 'MINOR' }),
        serverDown(instance, { fingerprint: 'twice', perceivedSeverity: 'CRITICAL' }),
      ]);
      assert.deepEqual(
        again.map((o) => o.ok && [o.change, o.alarm.version, o.alarm.perceivedSeverity]),
        [
          ['updated', 2, 'CRITICAL'],
          ['updated', 2, 'CRITICAL'],
        ],
      );
      const stored = await findAlarm(db.kysely, [...ids][0] as string);
      assert.equal(stored?.perceivedSeverity, 'CRITICAL');
      assert.equal(stored?.version, 2);
      assert.equal((await newRows()).length, 3, 'one AlarmNotification per subscriber for the batch');
    });

    test('a batch of 1,200 new alarms commits them all with their notifications', async () => {
      const outcomes = await raiseAlarms(
        db,
        Array.from({ length: 1200 }, (_, i) => serverDown(instance, { fingerprint: `bulk-${i}` })),
      );
      assert.ok(outcomes.every((o) => o.ok && o.change === 'raised'));
      const rows = await newRows();
      assert.equal(rows.length, 1200 * 3);
      assert.deepEqual(
        rows.slice(0, 3).map((r) => (r.payload.alarm as { id: string }).id),
        outcomes.slice(0, 1).flatMap((o) => (o.ok ? [o.alarm.id, o.alarm.id, o.alarm.id] : [])),
        'in the order of the inputs',
      );
    });

    test('a batch clears 1,200 alarms by id and by fingerprint, each at its time and once, in the order of its selectors, with their notifications', async () => {
      const open = await db.kysely
        .selectFrom('alarms')
        .select(['id', 'fingerprint'])
        .where('fingerprint', 'like', 'bulk-%')
        .where('alarm_cleared_time', 'is', null)
        .execute();
      const idOf = (i: number) => open.find((a) => a.fingerprint === `bulk-${i}`)?.id ?? `missing-${i}`;
      await ackAlarm(db, { id: idOf(7), project: undefined, ackState: 'ACKNOWLEDGED' });
      await clearAlarm(db, { id: idOf(9) });
      await newRows();
      const start = new Date().toISOString();
      const selectors: ClearSelector[] = Array.from({ length: 1200 }, (_, i) =>
        i % 2
          ? { id: idOf(i) }
          : {
              managedObjectId: instance,
              fingerprint: `bulk-${i}`,
              clearedTime: `2026-11-25T10:${String(i % 60).padStart(2, '0')}:00Z`,
            },
      ).reverse();
      selectors.push(
        { id: idOf(0), clearedTime: '2026-01-01T00:00:00Z' },
        { id: 'no-such-alarm' },
        { managedObjectId: instance, fingerprint: 'no-such-fingerprint' },
      );

      const cleared = await clearAlarms(db, selectors);
      const expected = Array.from({ length: 1200 }, (_, i) => 1199 - i).filter((i) => i !== 9);
      assert.deepEqual(
        cleared.map((a) => a.fingerprint),
        expected.map((i) => `bulk-${i}`),
        'each open alarm once, in the order of the selectors; the cleared one and unknown ones left out',
      );
      const byFingerprint = new Map(cleared.map((a) => [a.fingerprint, a]));
      assert.equal(
        byFingerprint.get('bulk-0')?.alarmClearedTime,
        '2026-11-25T10:00:00.000Z',
        'the first selector wins',
      );
      assert.equal(byFingerprint.get('bulk-2')?.alarmClearedTime, '2026-11-25T10:02:00.000Z');
      assert.ok((byFingerprint.get('bulk-1')?.alarmClearedTime ?? '') >= start, 'no time given: now');
      assert.equal(
        byFingerprint.get('bulk-7')?.ackState,
        'ACKNOWLEDGED',
        'the stored alarm is what was cleared',
      );
      assert.equal(byFingerprint.get('bulk-7')?.version, 3);
      assert.ok(cleared.every((a) => a.alarmChangedTime && (a.fingerprint === 'bulk-7' || a.version === 2)));
      assert.deepEqual(await findAlarm(db.kysely, idOf(2)), byFingerprint.get('bulk-2'));

      const rows = await newRows();
      assert.equal(rows.length, 1199 * 4);
      assert.ok(rows.every((r) => r.notificationType === 'AlarmClearedNotification'));
      assert.deepEqual(who(rows.slice(0, 4)), ['all', 'byInstance', 'byVnfd', 'clearedOnly']);
      assert.deepEqual(
        [...new Set(rows.map((r) => r.payload.alarmId))],
        cleared.map((a) => a.id),
      );
      assert.deepEqual(await clearAlarms(db, selectors), [], 'nothing left to clear');
      assert.deepEqual(await newRows(), []);
    });

    test('alarms raised in a transaction that fails leave no alarm and no notification', async () => {
      await assert.rejects(
        inTransaction(db, async (trx) => {
          await raiseAlarmsIn(trx, [serverDown(instance, { fingerprint: 'rolled-back' })]);
          throw new Error('the caller fails');
        }),
        /the caller fails/,
      );
      const rows = await db.kysely
        .selectFrom('alarms')
        .select('id')
        .where('fingerprint', '=', 'rolled-back')
        .execute();
      assert.equal(rows.length, 0);
      assert.deepEqual(await newRows(), []);
    });

    test('concurrent raises of one fingerprint open one alarm', async () => {
      const input = serverDown(instance, { fingerprint: 'racing' });
      const outcomes = await Promise.all(Array.from({ length: 6 }, () => raiseAlarm(db, input)));
      assert.equal(new Set(outcomes.map((o) => o.alarm.id)).size, 1);
      assert.equal(outcomes.filter((o) => o.change === 'raised').length, 1);
      await newRows();
    });

    test('acknowledging sets and clears alarmAcknowledgedTime, refuses the same state (409), a stale version (412) and another project (404), and notifies nobody', async () => {
      const { alarm } = await raiseAlarm(db, serverDown(instance, { fingerprint: 'ack-me' }));
      await newRows();
      const acked = await ackAlarm(db, { id: alarm.id, project: 'p1', ackState: 'ACKNOWLEDGED' });
      assert.equal(acked.ackState, 'ACKNOWLEDGED');
      assert.ok(acked.alarmAcknowledgedTime);
      assert.equal(acked.version, alarm.version + 1);
      await assert.rejects(
        ackAlarm(db, { id: alarm.id, project: 'p1', ackState: 'ACKNOWLEDGED' }),
        status(409, /already ACKNOWLEDGED/),
      );
      await assert.rejects(
        ackAlarm(db, {
          id: alarm.id,
          project: 'p1',
          ackState: 'UNACKNOWLEDGED',
          expectedVersion: alarm.version,
        }),
        status(412, /changed since it was read/),
      );
      await assert.rejects(
        ackAlarm(db, { id: alarm.id, project: 'p2', ackState: 'UNACKNOWLEDGED' }),
        status(404),
      );
      const unacked = await ackAlarm(db, {
        id: alarm.id,
        project: undefined,
        ackState: 'UNACKNOWLEDGED',
        expectedVersion: acked.version,
      });
      assert.equal(unacked.ackState, 'UNACKNOWLEDGED');
      assert.equal(unacked.alarmAcknowledgedTime, undefined);
      assert.deepEqual(await newRows(), []);
    });

    test('escalation raises the severity with AlarmNotification, and refuses a lower one, CLEARED and a cleared alarm', async () => {
      const { alarm } = await raiseAlarm(
        db,
        serverDown(instance, { fingerprint: 'escalate-me', perceivedSeverity: 'MINOR' }),
      );
      await newRows();
      const escalated = await escalateAlarm(db, {
        id: alarm.id,
        project: 'p1',
        proposedPerceivedSeverity: 'MAJOR',
      });
      assert.equal(escalated.perceivedSeverity, 'MAJOR');
      const rows = await newRows();
      assert.deepEqual(who(rows), ['all', 'byInstance', 'byVnfd']);
      assert.equal((rows[0].payload.alarm as { perceivedSeverity: string }).perceivedSeverity, 'MAJOR');
      await assert.rejects(
        escalateAlarm(db, { id: alarm.id, project: 'p1', proposedPerceivedSeverity: 'WARNING' }),
        status(409, /more urgent severity, not WARNING/),
      );
      await assert.rejects(
        escalateAlarm(db, { id: alarm.id, project: 'p1', proposedPerceivedSeverity: 'CLEARED' }),
        status(422),
      );
      await clearAlarm(db, { id: alarm.id });
      await newRows();
      await assert.rejects(
        escalateAlarm(db, { id: alarm.id, project: 'p1', proposedPerceivedSeverity: 'CRITICAL' }),
        status(409, /was cleared/),
      );
      assert.deepEqual(await newRows(), []);
    });

    test('an alarm on a v1 instance links to the v1 instance resource', async () => {
      const v1 = await addInstance(db, { major: 'v1' });
      const { alarm } = await raiseAlarm(db, serverDown(v1));
      assert.equal(alarm.instanceMajor, 'v1');
      const rows = await newRows();
      const links = (rows[0].payload.alarm as { _links: { objectInstance: { href: string } } })._links;
      assert.equal(links.objectInstance.href, `/vnflcm/v1/vnf_instances/${v1}`);
    });

    test('raising for an instance of another project notifies that project only', async () => {
      const other = await addInstance(db, { projectId: 'p2' });
      const { alarm } = await raiseAlarm(db, serverDown(other));
      assert.equal(alarm.projectId, 'p2');
      assert.deepEqual(who(await newRows()), ['otherProject']);
    });
  });
}

/**
 * Rebuilding the alarm list (SQLite and PostgreSQL): every FM subscriber of the project that
 * wants it hears AlarmListRebuiltNotification once, instead of one notification per alarm; a
 * source reconciling what it reports active raises what is missing and clears only its own
 * alarms that are gone.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { findAlarm, raiseAlarm, rebuildAlarmList } from '../../src/fm/index.ts';
import type { Database } from '../../src/store/db/database.ts';
import { DIALECTS } from '../support/databases.ts';
import { addFmSubscription, addInstance, freshDatabase, outboxReader, serverDown } from './support.ts';

for (const dialect of DIALECTS) {
  describe(`alarm list rebuild on ${dialect}`, () => {
    let db: Database;
    let instance: string;
    let subs: Record<string, string>;
    let newRows: ReturnType<typeof outboxReader>;
    before(async () => {
      db = await freshDatabase(dialect);
      instance = await addInstance(db);
      subs = {
        all: await addFmSubscription(db),
        alarmsOnly: await addFmSubscription(db, { notificationTypes: ['AlarmNotification'] }),
        rebuiltOnly: await addFmSubscription(db, { notificationTypes: ['AlarmListRebuiltNotification'] }),
        minorOnly: await addFmSubscription(db, { perceivedSeverities: ['MINOR'] }),
        otherProject: await addFmSubscription(db, undefined, 'p2'),
      };
      newRows = outboxReader(db);
    });
    after(() => db.close());

    const who = (rows: { subscriptionId: string }[]) =>
      rows.map((r) => Object.entries(subs).find(([, id]) => id === r.subscriptionId)?.[0]).sort();

    test("a project's rebuild tells each of its subscribers that wants it, once", async () => {
      const result = await rebuildAlarmList(db, { project: 'p1' });
      assert.deepEqual(result.projects, ['p1']);
      const rows = await newRows();
      // A severity criterion does not apply: the notification carries no alarm.
      assert.deepEqual(who(rows), ['all', 'minorOnly', 'rebuiltOnly']);
      const payload = rows[0].payload as {
        notificationType: string;
        _links: Record<string, { href: string }>;
      };
      assert.equal(payload.notificationType, 'AlarmListRebuiltNotification');
      assert.deepEqual(payload._links.alarms, { href: '/vnffm/v1/alarms' });
      assert.equal(result.notified, 3);
    });

    test('without a project, every project with FM subscriptions is told', async () => {
      const result = await rebuildAlarmList(db);
      assert.deepEqual(result.projects, ['p1', 'p2']);
      assert.deepEqual(who(await newRows()), ['all', 'minorOnly', 'otherProject', 'rebuiltOnly']);
    });

    test("reconciling raises what a source reports, clears only that source's alarms that are gone, and sends only the rebuilt notification", async () => {
      const gone = await raiseAlarm(db, serverDown(instance, { fingerprint: 'health:server-gone' }));
      const kept = await raiseAlarm(db, serverDown(instance, { fingerprint: 'health:server-kept' }));
      const foreign = await raiseAlarm(db, serverDown(instance, { fingerprint: 'alertmanager:abc' }));
      await newRows();
      const result = await rebuildAlarmList(db, {
        project: 'p1',
        reconcile: {
          active: [
            serverDown(instance, { fingerprint: 'health:server-kept' }),
            serverDown(instance, { fingerprint: 'health:server-new' }),
          ],
          owns: (fingerprint) => fingerprint.startsWith('health:'),
        },
      });
      assert.deepEqual(
        result.raised.map((o) => (o.ok ? o.change : o.problem)),
        ['unchanged', 'raised'],
      );
      assert.equal(result.cleared, 1);
      assert.ok((await findAlarm(db.kysely, gone.alarm.id))?.alarmClearedTime);
      assert.equal((await findAlarm(db.kysely, kept.alarm.id))?.alarmClearedTime, undefined);
      assert.equal((await findAlarm(db.kysely, foreign.alarm.id))?.alarmClearedTime, undefined);
      const rows = await newRows();
      assert.deepEqual(
        rows.map((r) => r.notificationType),
        rows.map(() => 'AlarmListRebuiltNotification'),
      );
      assert.deepEqual(who(rows), ['all', 'minorOnly', 'rebuiltOnly']);
    });
  });
}

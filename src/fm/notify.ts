/**
 * The alarm domain's notifications, from its records: AlarmNotification (raised, changed,
 * escalated), AlarmClearedNotification and AlarmListRebuiltNotification, each written to the
 * outbox with the caller's transaction. Subscription filters are matched on the managed
 * instance's facts (read here, so that a filter on vnfdId or the product works) and the alarm.
 */
import { emitAlarmCleared, emitAlarmListRebuilt, emitAlarmNotification } from '../notify/fm-notifications.ts';
import type { VnfInstanceFacts } from '../notify/vnf-instance-filter.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { AlarmRecord } from './model.ts';
import { toAlarm } from './representation.ts';
import { subjectFacts } from './subject.ts';

const facts = async (trx: Executor, alarm: AlarmRecord, known?: VnfInstanceFacts) =>
  known ?? (await subjectFacts(trx, alarm.managedObjectId));

/** An alarm was raised or changed; returns how many subscribers were notified. */
export async function notifyAlarm(trx: Executor, alarm: AlarmRecord, instance?: VnfInstanceFacts) {
  return emitAlarmNotification(trx, {
    project: alarm.projectId,
    instance: await facts(trx, alarm, instance),
    alarm: toAlarm(alarm),
  });
}

/** An alarm was cleared. */
export async function notifyCleared(trx: Executor, alarm: AlarmRecord) {
  return emitAlarmCleared(trx, {
    project: alarm.projectId,
    instance: await facts(trx, alarm),
    alarm: toAlarm(alarm),
  });
}

/** The project's alarm list was rebuilt: its subscribers should read it again. */
export const notifyRebuilt = (trx: Executor, project: string) => emitAlarmListRebuilt(trx, { project });

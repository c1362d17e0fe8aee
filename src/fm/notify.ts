/**
 * The alarm domain's notifications, from its records: AlarmNotification (raised, changed,
 * escalated), AlarmClearedNotification and AlarmListRebuiltNotification, each written to the
 * outbox with the caller's transaction. Subscription filters are matched on the managed
 * instance's facts (so that a filter on vnfdId or the product works) and the alarm. A batch
 * collects its notices and writes them together (`sendNotices`).
 */
import {
  alarmClearedNotification,
  alarmNotification,
  emitAlarmListRebuilt,
  FM_API,
} from '../notify/fm-notifications.ts';
import { type EnqueueRequest, enqueueNotifications } from '../notify/outbox.ts';
import type { VnfInstanceFacts } from '../notify/vnf-instance-filter.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { AlarmRecord } from './model.ts';
import { toAlarm } from './representation.ts';
import { subjectFacts } from './subject.ts';

/** AlarmNotification for every matching subscriber: the alarm was raised or changed. */
export const raisedNotice = (alarm: AlarmRecord, instance: VnfInstanceFacts): EnqueueRequest => ({
  project: alarm.projectId,
  api: FM_API,
  notification: alarmNotification({ instance, alarm: toAlarm(alarm) }),
});

/** AlarmClearedNotification for every matching subscriber. */
export const clearedNotice = (alarm: AlarmRecord, instance: VnfInstanceFacts): EnqueueRequest => ({
  project: alarm.projectId,
  api: FM_API,
  notification: alarmClearedNotification({ instance, alarm: toAlarm(alarm) }),
});

/** Writes the notices to the outbox in `trx`; returns how many notifications. */
export const sendNotices = (trx: Executor, notices: readonly EnqueueRequest[]) =>
  enqueueNotifications(trx, notices);

/** An alarm was raised or changed (its instance's facts read here). */
export async function notifyAlarm(trx: Executor, alarm: AlarmRecord) {
  return sendNotices(trx, [raisedNotice(alarm, await subjectFacts(trx, alarm.managedObjectId))]);
}

/** The project's alarm list was rebuilt: its subscribers should read it again. */
export const notifyRebuilt = (trx: Executor, project: string) => emitAlarmListRebuilt(trx, { project });

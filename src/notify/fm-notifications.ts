/**
 * SOL002/SOL003 fault management notifications (/vnffm/v1), emitted through the outbox in the
 * transaction of the change: AlarmNotification (an alarm raised or changed), AlarmClearedNotification
 * and AlarmListRebuiltNotification. The alarm is given as its API representation (links
 * path-absolute); the filter is matched against that alarm and its VNF instance.
 */
import type { Executor } from '../store/db/transaction.ts';
import {
  type AlarmFacts,
  type FmNotificationsFilter,
  type FmNotificationType,
  matchesFmFilter,
} from './fm-filter.ts';
import { enqueueNotification, type PendingNotification } from './outbox.ts';
import { type Links, pendingNotification, subscriptionLink } from './subscriptions/pending.ts';
import type { VnfInstanceFacts } from './vnf-instance-filter.ts';

export const FM_API = 'vnffm';

/** The SOL Alarm representation, as far as notifications need to know it. */
export interface AlarmRepresentation {
  id: string;
  managedObjectId: string;
  rootCauseFaultyResource?: { faultyResourceType?: string; [key: string]: unknown };
  perceivedSeverity: string;
  eventType: string;
  probableCause: string;
  alarmClearedTime?: string;
  [key: string]: unknown;
}

export interface AlarmNotice {
  /** The VNF instance the alarm is about (its managedObjectId). */
  instance: VnfInstanceFacts;
  alarm: AlarmRepresentation;
}

const alarmFacts = (alarm: AlarmRepresentation): AlarmFacts => ({
  faultyResourceType: alarm.rootCauseFaultyResource?.faultyResourceType,
  perceivedSeverity: alarm.perceivedSeverity,
  eventType: alarm.eventType,
  probableCause: alarm.probableCause,
});

function fmPending(
  notificationType: FmNotificationType,
  notice: Partial<AlarmNotice>,
  fields: () => Record<string, unknown>,
  links: (major: string) => Links,
): PendingNotification {
  return pendingNotification({
    notificationType,
    matches: (filter) =>
      matchesFmFilter(filter as FmNotificationsFilter, {
        notificationType,
        instance: notice.instance,
        alarm: notice.alarm && alarmFacts(notice.alarm),
      }),
    fields,
    links: (target) => ({ subscription: subscriptionLink(FM_API, target), ...links(target.major) }),
  });
}

/** An alarm was raised, or changed (e.g. its severity). */
export const alarmNotification = (notice: AlarmNotice) =>
  fmPending(
    'AlarmNotification',
    notice,
    () => ({ alarm: notice.alarm }),
    () => ({}),
  );

/** An alarm was cleared. */
export const alarmClearedNotification = (notice: AlarmNotice) => {
  const clearedAt = notice.alarm.alarmClearedTime ?? new Date().toISOString();
  return fmPending(
    'AlarmClearedNotification',
    notice,
    () => ({ alarmId: notice.alarm.id, alarmClearedTime: clearedAt }),
    (major) => ({ alarm: { href: `/${FM_API}/${major}/alarms/${notice.alarm.id}` } }),
  );
};

/** The alarm list was rebuilt: subscribers should read it again. */
export const alarmListRebuiltNotification = () =>
  fmPending(
    'AlarmListRebuiltNotification',
    {},
    () => ({}),
    (major) => ({ alarms: { href: `/${FM_API}/${major}/alarms` } }),
  );

const emit = (trx: Executor, project: string, notification: PendingNotification) =>
  enqueueNotification(trx, { project, api: FM_API, notification });

/** Writes AlarmNotification for every matching subscriber of the project, in `trx`. */
export const emitAlarmNotification = (trx: Executor, request: { project: string } & AlarmNotice) =>
  emit(trx, request.project, alarmNotification(request));

/** Writes AlarmClearedNotification for every matching subscriber of the project, in `trx`. */
export const emitAlarmCleared = (trx: Executor, request: { project: string } & AlarmNotice) =>
  emit(trx, request.project, alarmClearedNotification(request));

/** Writes AlarmListRebuiltNotification for every subscriber of the project that wants it, in `trx`. */
export const emitAlarmListRebuilt = (trx: Executor, request: { project: string }) =>
  emit(trx, request.project, alarmListRebuiltNotification());

/**
 * SOL002/SOL003 FmNotificationsFilter (/vnffm/v1), matched against the real notification: the
 * alarm it reports (or clears) and the VNF instance the alarm is about. A criterion on an alarm
 * attribute the notification does not carry (AlarmListRebuiltNotification has no alarm; an
 * alarm without a root-cause faulty resource) does not apply.
 */
import { type Static, Type } from '@sinclair/typebox';
import { listMatches } from './subscriptions/match.ts';
import { stringEnum } from './subscriptions/schema-helpers.ts';
import {
  matchesVnfInstanceFilter,
  type VnfInstanceFacts,
  VnfInstanceSubscriptionFilterSchema,
  vnfInstanceFilterProblem,
} from './vnf-instance-filter.ts';

export const FM_NOTIFICATION_TYPES = [
  'AlarmNotification',
  'AlarmClearedNotification',
  'AlarmListRebuiltNotification',
] as const;
export type FmNotificationType = (typeof FM_NOTIFICATION_TYPES)[number];

export const FAULTY_RESOURCE_TYPES = ['COMPUTE', 'STORAGE', 'NETWORK'] as const;
export const PERCEIVED_SEVERITIES = [
  'CRITICAL',
  'MAJOR',
  'MINOR',
  'WARNING',
  'INDETERMINATE',
  'CLEARED',
] as const;
export const EVENT_TYPES = [
  'COMMUNICATIONS_ALARM',
  'PROCESSING_ERROR_ALARM',
  'ENVIRONMENTAL_ALARM',
  'QOS_ALARM',
  'EQUIPMENT_ALARM',
] as const;

export const FM_FILTER_SCHEMA = Type.Object(
  {
    vnfInstanceSubscriptionFilter: Type.Optional(VnfInstanceSubscriptionFilterSchema),
    notificationTypes: Type.Optional(Type.Array(stringEnum(FM_NOTIFICATION_TYPES))),
    faultyResourceTypes: Type.Optional(
      Type.Array(stringEnum(FAULTY_RESOURCE_TYPES), {
        description: 'Match alarms whose root-cause faulty resource is of one of these types.',
      }),
    ),
    perceivedSeverities: Type.Optional(Type.Array(stringEnum(PERCEIVED_SEVERITIES))),
    eventTypes: Type.Optional(Type.Array(stringEnum(EVENT_TYPES))),
    probableCauses: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  },
  { additionalProperties: false, description: 'SOL003 FmNotificationsFilter' },
);

export type FmNotificationsFilter = Static<typeof FM_FILTER_SCHEMA>;

/** The alarm attributes the filter looks at. */
export interface AlarmFacts {
  faultyResourceType?: string;
  perceivedSeverity?: string;
  eventType?: string;
  probableCause?: string;
}

export interface FmNotificationSubject {
  notificationType: FmNotificationType;
  /** The VNF instance the alarm is about (absent: AlarmListRebuiltNotification). */
  instance?: VnfInstanceFacts;
  alarm?: AlarmFacts;
}

export const fmFilterProblem = (filter: FmNotificationsFilter) =>
  vnfInstanceFilterProblem(filter.vnfInstanceSubscriptionFilter);

/** A criterion applies only when the notification carries the attribute. */
const whenKnown = (wanted: readonly string[] | undefined, actual: string | undefined) =>
  actual === undefined || listMatches(wanted, actual);

export function matchesFmFilter(
  filter: FmNotificationsFilter | undefined,
  subject: FmNotificationSubject,
): boolean {
  if (!filter) return true;
  const alarm = subject.alarm ?? {};
  return (
    listMatches(filter.notificationTypes, subject.notificationType) &&
    (subject.instance === undefined ||
      matchesVnfInstanceFilter(filter.vnfInstanceSubscriptionFilter, subject.instance)) &&
    whenKnown(filter.faultyResourceTypes, alarm.faultyResourceType) &&
    whenKnown(filter.perceivedSeverities, alarm.perceivedSeverity) &&
    whenKnown(filter.eventTypes, alarm.eventType) &&
    whenKnown(filter.probableCauses, alarm.probableCause)
  );
}

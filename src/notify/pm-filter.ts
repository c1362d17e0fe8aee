/**
 * SOL002/SOL003 v3.3.1 PmNotificationsFilter (/vnfpm/v2), matched against the real notification
 * and the VNF instance it measures.
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

export const PM_NOTIFICATION_TYPES = [
  'PerformanceInformationAvailableNotification',
  'ThresholdCrossedNotification',
] as const;
export type PmNotificationType = (typeof PM_NOTIFICATION_TYPES)[number];

export const PM_FILTER_SCHEMA = Type.Object(
  {
    vnfInstanceSubscriptionFilter: Type.Optional(VnfInstanceSubscriptionFilterSchema),
    notificationTypes: Type.Optional(Type.Array(stringEnum(PM_NOTIFICATION_TYPES))),
  },
  { additionalProperties: false, description: 'SOL003 v3.3.1 PmNotificationsFilter' },
);

export type PmNotificationsFilter = Static<typeof PM_FILTER_SCHEMA>;

export interface PmNotificationSubject {
  notificationType: PmNotificationType;
  /** The measured VNF instance (the notification's objectInstanceId). */
  instance: VnfInstanceFacts;
}

export const pmFilterProblem = (filter: PmNotificationsFilter) =>
  vnfInstanceFilterProblem(filter.vnfInstanceSubscriptionFilter);

export function matchesPmFilter(
  filter: PmNotificationsFilter | undefined,
  subject: PmNotificationSubject,
): boolean {
  if (!filter) return true;
  return (
    listMatches(filter.notificationTypes, subject.notificationType) &&
    matchesVnfInstanceFilter(filter.vnfInstanceSubscriptionFilter, subject.instance)
  );
}

/**
 * SOL002/SOL003 v3.3.1 performance management notifications (/vnfpm/v2), emitted through the
 * outbox in the transaction of the change: PerformanceInformationAvailableNotification (a PM job
 * has a new report) and ThresholdCrossedNotification. The measured object is a VNF instance
 * (objectInstanceId), which the filter's vnfInstanceSubscriptionFilter is matched against.
 */
import type { Executor } from '../store/db/transaction.ts';
import { enqueueNotification, type PendingNotification } from './outbox.ts';
import { matchesPmFilter, type PmNotificationsFilter, type PmNotificationType } from './pm-filter.ts';
import { type Links, pendingNotification, subscriptionLink } from './subscriptions/pending.ts';
import type { VnfInstanceFacts } from './vnf-instance-filter.ts';

export const PM_API = 'vnfpm';

/** Vnf, Vnfc, VnfIntCp or VnfExtCp: objectInstanceId is the VNF instance in every case. */
export type PmObjectType = 'Vnf' | 'Vnfc' | 'VnfIntCp' | 'VnfExtCp';

export interface PerformanceInformationNotice {
  instance: VnfInstanceFacts;
  pmJobId: string;
  reportId: string;
  objectType: PmObjectType;
  subObjectInstanceIds?: string[];
}

export interface ThresholdCrossedNotice {
  instance: VnfInstanceFacts;
  thresholdId: string;
  crossingDirection: 'UP' | 'DOWN';
  objectType: PmObjectType;
  subObjectInstanceId?: string;
  performanceMetric: string;
  performanceValue: unknown;
  context?: Record<string, unknown>;
}

function pmPending(
  notificationType: PmNotificationType,
  instance: VnfInstanceFacts,
  fields: Record<string, unknown>,
  links: (major: string) => Links,
): PendingNotification {
  return pendingNotification({
    notificationType,
    matches: (filter) => matchesPmFilter(filter as PmNotificationsFilter, { notificationType, instance }),
    fields: () => fields,
    links: (target) => ({
      subscription: subscriptionLink(PM_API, target),
      // The VNF instance, as the LCM API of the same generation shows it.
      objectInstance: { href: `/vnflcm/v2/vnf_instances/${instance.vnfInstanceId}` },
      ...links(target.major),
    }),
  });
}

const defined = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

/** A PM job produced a report. */
export const performanceInformationAvailable = (notice: PerformanceInformationNotice) =>
  pmPending(
    'PerformanceInformationAvailableNotification',
    notice.instance,
    defined({
      pmJobId: notice.pmJobId,
      objectType: notice.objectType,
      objectInstanceId: notice.instance.vnfInstanceId,
      subObjectInstanceIds: notice.subObjectInstanceIds,
    }),
    (major) => ({
      pmJob: { href: `/${PM_API}/${major}/pm_jobs/${notice.pmJobId}` },
      performanceReport: { href: `/${PM_API}/${major}/pm_jobs/${notice.pmJobId}/reports/${notice.reportId}` },
    }),
  );

/** A threshold was crossed. */
export const thresholdCrossed = (notice: ThresholdCrossedNotice) =>
  pmPending(
    'ThresholdCrossedNotification',
    notice.instance,
    defined({
      thresholdId: notice.thresholdId,
      crossingDirection: notice.crossingDirection,
      objectType: notice.objectType,
      objectInstanceId: notice.instance.vnfInstanceId,
      subObjectInstanceId: notice.subObjectInstanceId,
      performanceMetric: notice.performanceMetric,
      performanceValue: notice.performanceValue,
      context: notice.context,
    }),
    (major) => ({ threshold: { href: `/${PM_API}/${major}/thresholds/${notice.thresholdId}` } }),
  );

const emit = (trx: Executor, project: string, notification: PendingNotification) =>
  enqueueNotification(trx, { project, api: PM_API, notification });

/** Writes PerformanceInformationAvailableNotification for every matching subscriber, in `trx`. */
export const emitPerformanceInformationAvailable = (
  trx: Executor,
  request: { project: string } & PerformanceInformationNotice,
) => emit(trx, request.project, performanceInformationAvailable(request));

/** Writes ThresholdCrossedNotification for every matching subscriber, in `trx`. */
export const emitThresholdCrossed = (trx: Executor, request: { project: string } & ThresholdCrossedNotice) =>
  emit(trx, request.project, thresholdCrossed(request));

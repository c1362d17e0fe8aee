/**
 * SOL002/SOL003 lifecycle change notifications, emitted through the outbox in the transaction of
 * the change: VnfLcmOperationOccurrenceNotification, VnfIdentifierCreationNotification and
 * VnfIdentifierDeletionNotification. One call writes a row per matching vnflcm subscription of
 * the project; a /vnflcm/v1 subscriber gets the SOL003 v2.6.1 representation, a /vnflcm/v2 one
 * the v3.3.1 representation (with verbosity), each linking its own API major.
 */

import {
  type LcmNotificationType,
  type LcmOperationState,
  type LcmOperationType,
  type LifecycleChangeNotificationsFilter,
  matchesLcmFilter,
} from '../notify/lcm-filter.ts';
import { enqueueNotification, type PendingNotification, type SubscriptionTarget } from '../notify/outbox.ts';
import { pendingNotification, subscriptionLink } from '../notify/subscriptions/pending.ts';
import type { VnfInstanceFacts } from '../notify/vnf-instance-filter.ts';
import type { Executor } from '../store/db/transaction.ts';
import { isLcmMajor, LCM_MAJORS, type LcmMajor } from './majors/index.ts';
import type { LcmResultDetails } from './majors/major.ts';
import { NOTIFICATION_STATUS } from './op-states.ts';

export type { LcmMajor, LcmResultDetails };
export const LCM_API = 'vnflcm';
export type NotificationStatus = 'START' | 'RESULT';

/** The operation occurrence a notification reports. */
export interface LcmOpOccFacts {
  id: string;
  operation: LcmOperationType;
  operationState: LcmOperationState;
  /** Default from the state, as SOL specifies (see NOTIFICATION_STATUS). */
  notificationStatus?: NotificationStatus;
  isAutomaticInvocation: boolean;
}

/**
 * START on entering STARTING, PROCESSING and ROLLING_BACK; RESULT on the other states (SOL003
 * §5.6.2): part of the op occ state machine, which keeps it (src/lcm/op-states.ts).
 */
export { NOTIFICATION_STATUS };

/** A subscription of an unknown major hears as the newest (the subscription APIs only have these). */
const majorOf = (target: SubscriptionTarget): LcmMajor => (isLcmMajor(target.major) ? target.major : 'v2');

const instanceLink = (major: string, instanceId: string) => ({
  href: `/${LCM_API}/${major}/vnf_instances/${instanceId}`,
});

function lcmPending(
  notificationType: LcmNotificationType,
  instance: VnfInstanceFacts,
  opOcc: LcmOpOccFacts | undefined,
  fields: (target: SubscriptionTarget) => Record<string, unknown>,
): PendingNotification {
  return pendingNotification({
    notificationType,
    matches: (filter) =>
      matchesLcmFilter(filter as LifecycleChangeNotificationsFilter, {
        notificationType,
        instance,
        operation: opOcc?.operation,
        operationState: opOcc?.operationState,
      }),
    fields,
    links: (target) => ({
      vnfInstance: instanceLink(target.major, instance.vnfInstanceId),
      subscription: subscriptionLink(LCM_API, target),
      ...(opOcc ? { vnfLcmOpOcc: { href: `/${LCM_API}/${target.major}/vnf_lcm_op_occs/${opOcc.id}` } } : {}),
    }),
  });
}

export interface LcmOperationNotice {
  instance: VnfInstanceFacts;
  opOcc: LcmOpOccFacts;
  /** The same for every major, or per major when the representations differ. */
  details?: LcmResultDetails | ((major: LcmMajor) => LcmResultDetails);
}

/** The op occ entered `opOcc.operationState`. */
export function lcmOperationNotification(notice: LcmOperationNotice): PendingNotification {
  const { instance, opOcc } = notice;
  const status = opOcc.notificationStatus ?? NOTIFICATION_STATUS[opOcc.operationState];
  return lcmPending('VnfLcmOperationOccurrenceNotification', instance, opOcc, (target) => {
    const major = majorOf(target);
    const shapes = LCM_MAJORS[major];
    const details = (typeof notice.details === 'function' ? notice.details(major) : notice.details) ?? {};
    const full = !shapes.verbosity || target.verbosity !== 'SHORT';
    const changes =
      status === 'RESULT' && full
        ? Object.fromEntries(
            shapes.changeFields.filter((f) => details[f] !== undefined).map((f) => [f, details[f]]),
          )
        : {};
    return {
      notificationStatus: status,
      operationState: opOcc.operationState,
      vnfInstanceId: instance.vnfInstanceId,
      operation: opOcc.operation,
      isAutomaticInvocation: opOcc.isAutomaticInvocation,
      ...(shapes.verbosity ? { verbosity: full ? 'FULL' : 'SHORT' } : {}),
      vnfLcmOpOccId: opOcc.id,
      ...changes,
      ...(details.error && shapes.errorStates.includes(opOcc.operationState) ? { error: details.error } : {}),
    };
  });
}

/** The VNF instance resource was created. */
export const vnfIdentifierCreation = (instance: VnfInstanceFacts) =>
  lcmPending('VnfIdentifierCreationNotification', instance, undefined, () => ({
    vnfInstanceId: instance.vnfInstanceId,
  }));

/** The VNF instance resource was deleted. */
export const vnfIdentifierDeletion = (instance: VnfInstanceFacts) =>
  lcmPending('VnfIdentifierDeletionNotification', instance, undefined, () => ({
    vnfInstanceId: instance.vnfInstanceId,
  }));

export interface LcmEmitScope {
  /** The project owning the instance: only its subscriptions hear about it. */
  project: string;
  /** The majors whose subscribers hear about it (default both; e.g. ['v2'] for a v2-only instance). */
  majors?: readonly LcmMajor[];
}

const emit = (trx: Executor, scope: LcmEmitScope, notification: PendingNotification) =>
  enqueueNotification(trx, { project: scope.project, api: LCM_API, majors: scope.majors, notification });

/** Writes the op occ's state-change notification for every matching subscriber, in `trx`. */
export const emitLcmOperationNotification = (trx: Executor, request: LcmEmitScope & LcmOperationNotice) =>
  emit(trx, request, lcmOperationNotification(request));

/** Writes VnfIdentifierCreationNotification for every matching subscriber, in `trx`. */
export const emitVnfIdentifierCreation = (
  trx: Executor,
  request: LcmEmitScope & { instance: VnfInstanceFacts },
) => emit(trx, request, vnfIdentifierCreation(request.instance));

/** Writes VnfIdentifierDeletionNotification for every matching subscriber, in `trx`. */
export const emitVnfIdentifierDeletion = (
  trx: Executor,
  request: LcmEmitScope & { instance: VnfInstanceFacts },
) => emit(trx, request, vnfIdentifierDeletion(request.instance));

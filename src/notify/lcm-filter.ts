/**
 * SOL002/SOL003 LifecycleChangeNotificationsFilter (v2.6.1 for /vnflcm/v1, v3.3.1 for /vnflcm/v2),
 * matched against the real notification and the facts of its VNF instance. operationTypes and
 * operationStates only concern VnfLcmOperationOccurrenceNotification: the identifier creation
 * and deletion notifications pass them.
 */
import { type Static, Type } from '@sinclair/typebox';
import { OPERATION_STATES, OPERATIONS, type OperationState } from '../sol/lcm-operations.ts';
import { listMatches } from './subscriptions/match.ts';
import { stringEnum } from './subscriptions/schema-helpers.ts';
import {
  matchesVnfInstanceFilter,
  type VnfInstanceFacts,
  VnfInstanceSubscriptionFilterSchema,
  vnfInstanceFilterProblem,
} from './vnf-instance-filter.ts';

export const LCM_NOTIFICATION_TYPES = [
  'VnfLcmOperationOccurrenceNotification',
  'VnfIdentifierCreationNotification',
  'VnfIdentifierDeletionNotification',
] as const;
export type LcmNotificationType = (typeof LCM_NOTIFICATION_TYPES)[number];

/**
 * LcmOperationType of SOL003 v2.6.1 (/vnflcm/v1): the engine's operations (src/lcm/model.ts)
 * but CHANGE_VNFPKG, which v2.6.1 does not have.
 */
export const LCM_OPERATIONS_V1 = OPERATIONS.filter((o) => o !== 'CHANGE_VNFPKG');

/** LcmOperationType of SOL003 v3.3.1 (/vnflcm/v2): also the snapshot ones (a filter may name them; Bosun does not run them). */
export const LCM_OPERATIONS_V2 = [
  ...LCM_OPERATIONS_V1,
  'CREATE_SNAPSHOT',
  'REVERT_TO_SNAPSHOT',
  'CHANGE_VNFPKG',
] as const;
export type LcmOperationType = (typeof LCM_OPERATIONS_V2)[number];

/** LcmOperationStateType: the engine's op occ states. */
export const LCM_OPERATION_STATES = OPERATION_STATES;
export type LcmOperationState = OperationState;

function lcmFilterSchema(operations: readonly string[], spec: string) {
  return Type.Object(
    {
      vnfInstanceSubscriptionFilter: Type.Optional(VnfInstanceSubscriptionFilterSchema),
      notificationTypes: Type.Optional(Type.Array(stringEnum(LCM_NOTIFICATION_TYPES))),
      operationTypes: Type.Optional(
        Type.Array(stringEnum(operations), {
          description: 'Match operation occurrence notifications of these operations.',
        }),
      ),
      operationStates: Type.Optional(
        Type.Array(stringEnum(LCM_OPERATION_STATES), {
          description: 'Match operation occurrence notifications reporting these states.',
        }),
      ),
    },
    { additionalProperties: false, description: `${spec} LifecycleChangeNotificationsFilter` },
  );
}

export const LCM_FILTER_SCHEMA_V1 = lcmFilterSchema(LCM_OPERATIONS_V1, 'SOL003 v2.6.1');
export const LCM_FILTER_SCHEMA_V2 = lcmFilterSchema(LCM_OPERATIONS_V2, 'SOL003 v3.3.1');

export type LifecycleChangeNotificationsFilter = Static<typeof LCM_FILTER_SCHEMA_V2>;

/** What the filter looks at: the notification's type, operation and state, and its instance. */
export interface LcmNotificationSubject {
  notificationType: LcmNotificationType;
  instance: VnfInstanceFacts;
  operation?: string;
  operationState?: string;
}

export const lcmFilterProblem = (filter: LifecycleChangeNotificationsFilter) =>
  vnfInstanceFilterProblem(filter.vnfInstanceSubscriptionFilter);

export function matchesLcmFilter(
  filter: LifecycleChangeNotificationsFilter | undefined,
  subject: LcmNotificationSubject,
): boolean {
  if (!filter) return true;
  const opOcc = subject.notificationType === 'VnfLcmOperationOccurrenceNotification';
  return (
    listMatches(filter.notificationTypes, subject.notificationType) &&
    matchesVnfInstanceFilter(filter.vnfInstanceSubscriptionFilter, subject.instance) &&
    (!opOcc || listMatches(filter.operationTypes, subject.operation)) &&
    (!opOcc || listMatches(filter.operationStates, subject.operationState))
  );
}

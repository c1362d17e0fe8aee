/**
 * LCM notifications from the engine's records, written in the transaction of the change: one
 * call per state entered by an op occ, and the instance creation and deletion notices. Only the
 * subscribers of the instance's own API major hear about it (v2 instances live in v2 tables).
 */

import type { VnfInstanceFacts } from '../notify/vnf-instance-filter.ts';
import type { Executor } from '../store/db/transaction.ts';
import { LCM_MAJORS } from './majors/index.ts';
import type { OpOccRecord, VnfInstanceRecord } from './model.ts';
import {
  emitLcmOperationNotification,
  emitVnfIdentifierCreation,
  emitVnfIdentifierDeletion,
} from './notifications.ts';
import type { LcmStore } from './store.ts';

export function instanceFacts(instance: VnfInstanceRecord): VnfInstanceFacts {
  return {
    vnfInstanceId: instance.id,
    vnfInstanceName: instance.vnfInstanceName,
    vnfdId: instance.vnfdId,
    vnfProvider: instance.vnfProvider,
    vnfProductName: instance.vnfProductName,
    vnfSoftwareVersion: instance.vnfSoftwareVersion,
    vnfdVersion: instance.vnfdVersion,
  };
}

/** The op occ (as it is now) entered its current state. */
export function notifyOpOcc(
  trx: Executor,
  store: LcmStore,
  instance: VnfInstanceRecord,
  opOcc: OpOccRecord,
): Promise<number> {
  return emitLcmOperationNotification(trx, {
    project: instance.projectId,
    majors: [store.major],
    instance: instanceFacts(instance),
    opOcc: {
      id: opOcc.id,
      operation: opOcc.operation,
      operationState: opOcc.operationState,
      isAutomaticInvocation: opOcc.isAutomaticInvocation,
    },
    details: LCM_MAJORS[store.major].details(opOcc),
  });
}

export const notifyCreated = (trx: Executor, store: LcmStore, instance: VnfInstanceRecord) =>
  emitVnfIdentifierCreation(trx, {
    project: instance.projectId,
    majors: [store.major],
    instance: instanceFacts(instance),
  });

export const notifyDeleted = (trx: Executor, store: LcmStore, instance: VnfInstanceRecord) =>
  emitVnfIdentifierDeletion(trx, {
    project: instance.projectId,
    majors: [store.major],
    instance: instanceFacts(instance),
  });

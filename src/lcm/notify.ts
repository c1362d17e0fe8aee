/**
 * LCM notifications from the engine's records, written in the transaction of the change: one
 * call per state entered by an op occ, and the instance creation and deletion notices. Only the
 * subscribers of the instance's own API major hear about it (v2 instances live in v2 tables).
 */

import type { VnfInstanceFacts } from '../notify/vnf-instance-filter.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { OpOccRecord, VnfInstanceRecord } from './model.ts';
import {
  emitLcmOperationNotification,
  emitVnfIdentifierCreation,
  emitVnfIdentifierDeletion,
  type LcmResultDetails,
} from './notifications.ts';
import type { LcmMajor, LcmStore } from './store.ts';
import { changedExtConnectivityV1, changedInfoV1, resourceChangesV1 } from './v1-shapes.ts';

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

/** What the op occ changed, in the shapes of the instance's API major (v1: SOL003 v2.6.1). */
function details(opOcc: OpOccRecord, major: LcmMajor): LcmResultDetails {
  const out: LcmResultDetails = {};
  const v1 = major === 'v1';
  const changes = opOcc.resourceChanges;
  if (changes) {
    const shown = v1 ? { ...resourceChangesV1(changes, 'notification'), affectedExtLinkPorts: [] } : changes;
    if (shown.affectedVnfcs.length) out.affectedVnfcs = shown.affectedVnfcs;
    if (shown.affectedVirtualLinks.length) out.affectedVirtualLinks = shown.affectedVirtualLinks;
    if (shown.affectedExtLinkPorts.length) out.affectedExtLinkPorts = shown.affectedExtLinkPorts;
    if (shown.affectedVirtualStorages.length) out.affectedVirtualStorages = shown.affectedVirtualStorages;
  }
  if (opOcc.changedInfo && Object.keys(opOcc.changedInfo).length) {
    out.changedInfo = v1 ? changedInfoV1(opOcc.changedInfo) : (opOcc.changedInfo as Record<string, unknown>);
  }
  if (opOcc.changedExtConnectivity?.length) {
    out.changedExtConnectivity = v1
      ? changedExtConnectivityV1(opOcc.changedExtConnectivity)
      : opOcc.changedExtConnectivity;
  }
  if (opOcc.error) out.error = opOcc.error;
  return out;
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
    details: details(opOcc, store.major),
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

/**
 * A drift sync's change recorded as an LCM operation (as Tacker's sync does): an automatically
 * invoked MODIFY_INFO op occ, straight to COMPLETED, whose affectedVnfcs are the VNFCs the VIM
 * added, removed or moved to another resource, and its PROCESSING and COMPLETED notifications to
 * the instance's subscribers. One transaction with the instance's new instantiatedVnfInfo, under
 * the instance's busy hold (taken and released in it), so a user's operation and the sync never
 * interleave, and written only if nothing changed the instance since it was read.
 */
import { randomUUID } from 'node:crypto';
import type {
  AffectedVnfc,
  InstantiatedVnfInfo,
  ResourceChanges,
  VnfcResourceInfo,
} from '../sol/instance-model.ts';
import type { Database } from '../store/db/database.ts';
import { inTransaction } from '../store/db/transaction.ts';
import type { OpOccRecord, VnfInstanceRecord } from './model.ts';
import { notifyOpOcc } from './notify.ts';
import type { LcmStore } from './store.ts';
import { appendOpEvents } from './timeline/record.ts';
import { opEventsCommitted } from './timeline/signal.ts';

const affected = (v: VnfcResourceInfo, changeType: AffectedVnfc['changeType']): AffectedVnfc => ({
  id: v.id,
  vduId: v.vduId,
  changeType,
  computeResource: v.computeResource,
  ...(v.zoneId ? { zoneId: v.zoneId } : {}),
  ...(v.metadata ? { metadata: v.metadata } : {}),
});

/** The VNFCs `next` adds, removes, or places on another resource than `before`, by VNFC id. */
export function driftChanges(
  before: InstantiatedVnfInfo | undefined,
  next: InstantiatedVnfInfo,
): ResourceChanges {
  const old = new Map((before?.vnfcResourceInfo ?? []).map((v) => [v.id, v]));
  const now = new Map((next.vnfcResourceInfo ?? []).map((v) => [v.id, v]));
  const affectedVnfcs = [
    ...[...now.values()].filter((v) => !old.has(v.id)).map((v) => affected(v, 'ADDED')),
    ...[...old.values()].filter((v) => !now.has(v.id)).map((v) => affected(v, 'REMOVED')),
    ...[...now.values()]
      .filter((v) => {
        const was = old.get(v.id);
        return was && was.computeResource.resourceId !== v.computeResource.resourceId;
      })
      .map((v) => affected(v, 'MODIFIED')),
  ];
  return { affectedVnfcs, affectedVirtualLinks: [], affectedVirtualStorages: [], affectedExtLinkPorts: [] };
}

/** The instance changed between the read and the hold: the transaction rolls back (hold included). */
class Stale extends Error {}

/**
 * Writes `next` as `instance`'s instantiatedVnfInfo with its MODIFY_INFO op occ; undefined (and
 * nothing written) when an operation holds the instance or anything changed it since it was read.
 */
export async function recordDrift(
  db: Database,
  store: LcmStore,
  instance: VnfInstanceRecord,
  next: InstantiatedVnfInfo,
): Promise<OpOccRecord | undefined> {
  const id = randomUUID();
  const done = await inTransaction(db, async (trx) => {
    if (!(await store.hold(trx, instance.id, id))) return undefined;
    const held = (await store.findInstance(trx, instance.id)) as VnfInstanceRecord;
    // The hold bumped the version once: any other difference is a change made since the read.
    if (held.version !== instance.version + 1) throw new Stale();
    const now = new Date().toISOString();
    const processing: OpOccRecord = {
      id,
      projectId: instance.projectId,
      vnfInstanceId: instance.id,
      operation: 'MODIFY_INFO',
      operationState: 'PROCESSING',
      stateEnteredTime: now,
      startTime: now,
      isAutomaticInvocation: true,
      operationParams: {},
      isCancelPending: false,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    await store.insertOpOcc(trx, processing, { queued: false });
    await notifyOpOcc(trx, store, held, processing);
    await appendOpEvents(trx, db, id, [{ kind: 'state', state: 'PROCESSING' }]);
    await store.changeOpOcc(
      trx,
      id,
      { operationState: 'COMPLETED', resourceChanges: driftChanges(instance.instantiatedVnfInfo, next) },
      { from: ['PROCESSING'] },
    );
    await store.saveInstance(trx, { ...held, instantiatedVnfInfo: next }, { release: id });
    const completed = (await store.findOpOcc(trx, id)) as OpOccRecord;
    const saved = (await store.findInstance(trx, instance.id)) as VnfInstanceRecord;
    await notifyOpOcc(trx, store, saved, completed);
    await appendOpEvents(trx, db, id, [{ kind: 'state', state: 'COMPLETED' }]);
    return completed;
  }).catch((error: unknown) => {
    if (error instanceof Stale) return undefined;
    throw error;
  });
  if (done) opEventsCommitted(done.id);
  return done;
}

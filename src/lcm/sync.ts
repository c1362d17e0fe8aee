/**
 * Drift sync: an instance read back from a VIM that changes it by itself (Kubernetes replaces
 * pods), through its driver's `sync`, and its instantiatedVnfInfo rewritten when the VIM shows
 * something else. Only an INSTANTIATED instance no operation holds (an operation, or a
 * FAILED_TEMP one waiting for retry or rollback, is changing it: as Tacker skips those), written
 * only if no operation took it meanwhile. The change is recorded as an automatically invoked
 * MODIFY_INFO op occ with its notifications, in the same transaction (lcm/drift-record.ts).
 */
import type { InstantiatedVnfInfo } from '../sol/instance-model.ts';
import type { Database } from '../store/db/database.ts';
import type { VimAccess } from '../vims/access.ts';
import { recordDrift } from './drift-record.ts';
import { LCM_STORES, type LcmStore } from './store.ts';

export type SyncOutcome =
  | { synced: true; instantiatedVnfInfo: InstantiatedVnfInfo; vnfLcmOpOccId: string }
  | { synced: false; reason: 'UNCHANGED' | 'NOT_INSTANTIATED' | 'BUSY' | 'NOT_SUPPORTED' };

export interface SyncDeps {
  db: Database;
  vims: VimAccess;
}

/** The store holding instance `id` (an instance lives in its major's tables), if any. */
export async function storeOfInstance(db: Database, id: string, project?: string) {
  for (const store of LCM_STORES) {
    const instance = await store.findInstance(db.kysely, id);
    if (instance && (project === undefined || instance.projectId === project)) return { store, instance };
  }
  return undefined;
}

export async function syncInstance(deps: SyncDeps, store: LcmStore, id: string): Promise<SyncOutcome> {
  const instance = await store.findInstance(deps.db.kysely, id);
  const info = instance?.instantiatedVnfInfo;
  if (instance?.instantiationState !== 'INSTANTIATED' || !info) {
    return { synced: false, reason: 'NOT_INSTANTIATED' };
  }
  if (!instance || instance.busyOpOccId) return { synced: false, reason: 'BUSY' };
  const { connection } = await deps.vims.resolve(instance.projectId, instance.vimConnectionInfo);
  const driver = deps.vims.driver(connection.vimType);
  if (!driver.sync) return { synced: false, reason: 'NOT_SUPPORTED' };
  const next = await driver.sync(connection, instance.id, info);
  if (!next) return { synced: false, reason: 'UNCHANGED' };
  const recorded = await recordDrift(deps.db, store, instance, next);
  if (!recorded) return { synced: false, reason: 'BUSY' };
  return { synced: true, instantiatedVnfInfo: next, vnfLcmOpOccId: recorded.id };
}

/**
 * Which VIM an operation works with, with its credentials opened: the first entry of the
 * instance's vimConnectionInfo (v1 array, v2 map, or the stored form with sealed accessInfo) —
 * a registered VIM by `vimId`, completed from the registry, or a VIM given in full — else the
 * project's default VIM (its own, else the shared default, the simulated VIM out of the box).
 */
import type { SealedBox } from '../security/sealed-box.ts';
import type { Database } from '../store/db/database.ts';
import {
  openAccessInfo,
  type StoredVimConnection,
  toVimMap,
  type VimConnectionInfoMap,
  type VimConnectionInfoV1,
} from './connection-info.ts';
import { InfraError, type VimConnection } from './contract.ts';
import { defaultVimId, openVim } from './registry.ts';

/** Key of the connection when it comes from the project's default VIM (Tacker's). */
export const DEFAULT_CONNECTION_KEY = 'default';

export async function resolveVim(
  db: Database,
  box: SealedBox,
  project: string,
  vimConnectionInfo?:
    | readonly VimConnectionInfoV1[]
    | VimConnectionInfoMap
    | Record<string, StoredVimConnection>
    | null,
): Promise<VimConnection> {
  const entries = Object.entries(toVimMap(vimConnectionInfo));
  if (entries.length === 0) {
    const id = await defaultVimId(db.kysely, project);
    const vim = id ? await openVim(db, box, id, project) : undefined;
    if (!vim) {
      throw new InfraError(
        'NOT_FOUND',
        `Project ${project} has no default VIM: register one (bosun vim register --default) or give vimConnectionInfo.`,
        { project },
      );
    }
    return {
      id: DEFAULT_CONNECTION_KEY,
      vimId: vim.record.id,
      vimType: vim.record.vimType,
      interfaceInfo: vim.interfaceInfo,
      ...(vim.accessInfo ? { accessInfo: vim.accessInfo } : {}),
      extra: vim.record.extra,
    };
  }
  const [key, entry] = entries[0];
  const accessInfo = entry.accessInfo ?? openAccessInfo(box, entry.sealedAccessInfo);
  const registered = entry.vimId ? await openVim(db, box, entry.vimId, project) : undefined;
  if (registered) {
    const access = accessInfo ?? registered.accessInfo;
    return {
      id: key,
      vimId: registered.record.id,
      vimType: entry.vimType || registered.record.vimType,
      interfaceInfo: { ...registered.interfaceInfo, ...entry.interfaceInfo },
      ...(access ? { accessInfo: access } : {}),
      extra: { ...registered.record.extra, ...entry.extra },
    };
  }
  if (entry.vimId && !accessInfo) {
    throw new InfraError(
      'NOT_FOUND',
      `VIM ${entry.vimId} (vimConnectionInfo ${key}) is not registered in project ${project}: it was ` +
        'deleted, or never registered there. Register it, or name another VIM in vimConnectionInfo.',
      { vimId: entry.vimId },
    );
  }
  if (!entry.vimType) {
    throw new InfraError(
      'INVALID_REQUEST',
      `vimConnectionInfo ${key} names neither a registered VIM nor a vimType.`,
    );
  }
  return {
    id: key,
    ...(entry.vimId ? { vimId: entry.vimId } : {}),
    vimType: entry.vimType,
    ...(entry.interfaceInfo ? { interfaceInfo: entry.interfaceInfo } : {}),
    ...(accessInfo ? { accessInfo } : {}),
    ...(entry.extra ? { extra: entry.extra } : {}),
  };
}

/**
 * The VIM registry behind its APIs (Bosun's admin API, Tacker's /v1.0/vims): a VIM is registered,
 * or its connection changed, only after it answered the registration check with the credentials
 * given, and what it answered (its zones) is kept; a registered VIM is described live from the VIM.
 */
import type { SealedBox } from '../security/sealed-box.ts';
import { ApiError } from '../sol/problem.ts';
import type { Database } from '../store/db/database.ts';
import { describeVim } from './check.ts';
import type { VimConnection } from './contract.ts';
import type { VimDescription } from './description.ts';
import type { VimDriverTable } from './drivers/index.ts';
import {
  type NewVim,
  type OpenedVim,
  openVim,
  registerVim,
  updateVim,
  type VimChanges,
  type VimRecord,
} from './registry.ts';

export interface RegistryDeps {
  db: Database;
  box: SealedBox;
  drivers: VimDriverTable;
}

export interface CheckedVim {
  record: VimRecord;
  /** What the VIM answered; absent when its driver cannot describe a VIM. */
  description?: VimDescription;
}

const zoneNames = (d: VimDescription | undefined) => (d ? { zones: d.zones.map((z) => z.name) } : {});

const connectionOf = (
  vim: Pick<NewVim, 'vimType' | 'interfaceInfo' | 'accessInfo' | 'extra'>,
  vimId?: string,
): VimConnection => ({
  id: 'registration-check',
  ...(vimId ? { vimId } : {}),
  vimType: vim.vimType,
  ...(vim.interfaceInfo ? { interfaceInfo: vim.interfaceInfo } : {}),
  ...(vim.accessInfo ? { accessInfo: vim.accessInfo } : {}),
  ...(vim.extra ? { extra: vim.extra } : {}),
});

/** 422 for a VIM no driver could ever use: operations on it would all fail at the grant. */
function refuseUnserved(vimType: string, served: readonly string[]): void {
  if (served.includes(vimType)) return;
  throw new ApiError(
    422,
    `No driver serves VIM type ${vimType}: Bosun serves ${served.join(', ')}. Register a VIM of a served type.`,
    { extensions: { servedVimTypes: served } },
  );
}

/**
 * Registers `vim` once the VIM answered its check (ApiError 422/502 otherwise, nothing stored);
 * 422 for a vimType no driver serves.
 */
export async function registerCheckedVim(deps: RegistryDeps, vim: NewVim): Promise<CheckedVim> {
  refuseUnserved(vim.vimType, deps.drivers.vimTypes);
  const description = await describeVim(
    deps.drivers,
    connectionOf(vim),
    `The registration check of VIM ${vim.name}`,
    'Nothing was registered.',
  );
  const record = await registerVim(deps.db, deps.box, { ...vim, ...zoneNames(description) });
  return { record, ...(description ? { description } : {}) };
}

/**
 * Changes a registered VIM; when its connection changes (interfaceInfo or accessInfo, which
 * replace the stored ones) the VIM is checked with the new one first and nothing changes unless
 * it answers. undefined when the VIM is not visible to `project`.
 */
export async function updateCheckedVim(
  deps: RegistryDeps,
  current: OpenedVim,
  changes: VimChanges,
  project?: string,
): Promise<CheckedVim | undefined> {
  let description: VimDescription | undefined;
  let connection: Pick<VimChanges, 'interfaceInfo' | 'accessInfo'> = {};
  if (changes.interfaceInfo !== undefined || changes.accessInfo !== undefined) {
    const accessInfo = changes.accessInfo ?? current.accessInfo;
    connection = {
      interfaceInfo: changes.interfaceInfo ?? current.interfaceInfo,
      ...(accessInfo ? { accessInfo } : {}),
    };
    description = await describeVim(
      deps.drivers,
      connectionOf(
        { vimType: current.record.vimType, extra: current.record.extra, ...connection },
        current.record.id,
      ),
      `The registration check of VIM ${changes.name ?? current.record.name} with its new connection`,
      'Nothing was changed.',
    );
  }
  const record = await updateVim(
    deps.db,
    deps.box,
    current.record.id,
    { ...changes, ...connection, ...zoneNames(description) },
    project,
  );
  return record ? { record, ...(description ? { description } : {}) } : undefined;
}

/**
 * Asks a registered VIM, with its stored credentials, for its zones, hosts and capacity now.
 * undefined when its driver cannot describe a VIM; ApiError 404 when it is not visible, 422/502
 * when the VIM does not answer.
 */
export async function describeRegisteredVim(
  deps: RegistryDeps,
  id: string,
  project?: string,
): Promise<VimDescription | undefined> {
  const vim = await openVim(deps.db, deps.box, id, project);
  if (!vim) throw new ApiError(404, `VIM ${id} does not exist.`);
  return describeVim(
    deps.drivers,
    connectionOf(
      {
        vimType: vim.record.vimType,
        interfaceInfo: vim.interfaceInfo,
        ...(vim.accessInfo ? { accessInfo: vim.accessInfo } : {}),
        extra: vim.record.extra,
      },
      vim.record.id,
    ),
    `Reading VIM ${vim.record.name}`,
    'The VIM stays registered as it was.',
  );
}

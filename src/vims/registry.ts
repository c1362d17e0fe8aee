/**
 * The VIM registry: VIMs registered per project (or shared: project '*'), one default VIM per
 * project with the shared default as every project's fallback. accessInfo and the secret keys
 * of interfaceInfo are sealed with the SealedBox and never leave this module in a view.
 */
import { randomUUID } from 'node:crypto';
import type { SealedBox } from '../security/sealed-box.ts';
import type { Database } from '../store/db/database.ts';
import type { VimsTable } from '../store/db/tables.ts';
import { type Executor, inTransaction } from '../store/db/transaction.ts';
import { splitSecrets } from './connection-info.ts';

/** The project of VIMs every project sees (the automatically registered simulated VIM). */
export const SHARED_PROJECT = '*';

/** A registered VIM as views show it: never a credential. */
export interface VimRecord {
  id: string;
  projectId: string;
  name: string;
  vimType: string;
  description: string;
  interfaceInfo: Record<string, unknown>;
  extra: Record<string, unknown>;
  /** Whether accessInfo (or secret interfaceInfo keys) are stored, sealed. */
  hasCredentials: boolean;
  /** Whether this VIM is its project's default (for a shared VIM: every project's fallback). */
  isDefault: boolean;
  shared: boolean;
  createdAt: string;
  /** The zone names the VIM showed at its last registration check (absent: never checked). */
  zones?: string[];
  updatedAt?: string;
}

export interface NewVim {
  projectId: string;
  name: string;
  vimType: string;
  description?: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  isDefault?: boolean;
  /** The zone names its registration check saw. */
  zones?: string[];
}

/** What an update changes (absent: kept). interfaceInfo and accessInfo replace the stored ones. */
export interface VimChanges {
  name?: string;
  description?: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
  zones?: string[];
  /** true: the default of the VIM's project; false: no longer its default. */
  isDefault?: boolean;
}

/** A VIM with its credentials opened (for drivers only). */
export interface OpenedVim {
  record: VimRecord;
  interfaceInfo: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
}

export class VimNameTaken extends Error {
  override name = 'VimNameTaken';
}

interface Secrets {
  accessInfo?: Record<string, unknown>;
  interfaceInfo?: Record<string, unknown>;
}

function recordOf(row: VimsTable, defaults: Set<string>): VimRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    vimType: row.vim_type,
    description: row.description,
    interfaceInfo: JSON.parse(row.interface_info) as Record<string, unknown>,
    extra: JSON.parse(row.extra) as Record<string, unknown>,
    hasCredentials: row.sealed_secrets !== null,
    isDefault: defaults.has(row.id),
    shared: row.project_id === SHARED_PROJECT,
    createdAt: row.created_at,
    ...(row.zones !== null ? { zones: JSON.parse(row.zones) as string[] } : {}),
    ...(row.updated_at !== null ? { updatedAt: row.updated_at } : {}),
  };
}

async function defaultIds(db: Executor): Promise<Set<string>> {
  const rows = await db.selectFrom('default_vims').select('vim_id').execute();
  return new Set(rows.map((r) => r.vim_id));
}

/** Visible VIMs: a project's and the shared ones; every VIM for `undefined` (admin). */
export async function listVims(db: Database, project?: string): Promise<VimRecord[]> {
  let q = db.kysely.selectFrom('vims').selectAll().orderBy('project_id').orderBy('name');
  if (project !== undefined) q = q.where('project_id', 'in', [project, SHARED_PROJECT]);
  const [rows, defaults] = await Promise.all([q.execute(), defaultIds(db.kysely)]);
  return rows.map((r) => recordOf(r, defaults));
}

async function rowVisible(db: Executor, id: string, project?: string): Promise<VimsTable | undefined> {
  let q = db.selectFrom('vims').selectAll().where('id', '=', id);
  if (project !== undefined) q = q.where('project_id', 'in', [project, SHARED_PROJECT]);
  return q.executeTakeFirst();
}

export async function getVim(db: Database, id: string, project?: string): Promise<VimRecord | undefined> {
  const row = await rowVisible(db.kysely, id, project);
  return row ? recordOf(row, await defaultIds(db.kysely)) : undefined;
}

/** The VIM with its credentials, for resolving a connection. */
export async function openVim(
  db: Database,
  box: SealedBox,
  id: string,
  project?: string,
): Promise<OpenedVim | undefined> {
  const row = await rowVisible(db.kysely, id, project);
  if (!row) return undefined;
  const record = recordOf(row, await defaultIds(db.kysely));
  const secrets: Secrets = row.sealed_secrets
    ? JSON.parse(box.open(row.sealed_secrets).toString('utf8'))
    : {};
  return {
    record,
    interfaceInfo: { ...record.interfaceInfo, ...secrets.interfaceInfo },
    ...(secrets.accessInfo ? { accessInfo: secrets.accessInfo } : {}),
  };
}

/** The public interfaceInfo and the sealed secrets of a VIM's connection data. */
function sealConnection(
  box: SealedBox,
  interfaceInfo: Record<string, unknown> | undefined,
  accessInfo: Record<string, unknown> | undefined,
): { interface_info: string; sealed_secrets: string | null } {
  const iface = splitSecrets(interfaceInfo);
  const secrets: Secrets = {
    ...(accessInfo && Object.keys(accessInfo).length ? { accessInfo } : {}),
    ...(Object.keys(iface.secret).length ? { interfaceInfo: iface.secret } : {}),
  };
  return {
    interface_info: JSON.stringify(iface.public),
    sealed_secrets: Object.keys(secrets).length ? box.seal(JSON.stringify(secrets)) : null,
  };
}

async function refuseTakenName(trx: Executor, project: string, name: string, except?: string): Promise<void> {
  let q = trx.selectFrom('vims').select('id').where('project_id', '=', project).where('name', '=', name);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst())
    throw new VimNameTaken(`A VIM named ${name} is already registered in project ${project}.`);
}

export async function registerVim(db: Database, box: SealedBox, vim: NewVim): Promise<VimRecord> {
  const row: VimsTable = {
    id: randomUUID(),
    project_id: vim.projectId,
    name: vim.name,
    vim_type: vim.vimType,
    description: vim.description ?? '',
    ...sealConnection(box, vim.interfaceInfo, vim.accessInfo),
    extra: JSON.stringify(vim.extra ?? {}),
    created_at: new Date().toISOString(),
    zones: vim.zones ? JSON.stringify(vim.zones) : null,
    updated_at: null,
  };
  await inTransaction(db, async (trx) => {
    await refuseTakenName(trx, vim.projectId, vim.name);
    await trx.insertInto('vims').values(row).execute();
    if (vim.isDefault) await setDefault(trx, vim.projectId, row.id);
  });
  return recordOf(row, new Set(vim.isDefault ? [row.id] : []));
}

async function setDefault(db: Executor, project: string, vimId: string): Promise<void> {
  await db
    .insertInto('default_vims')
    .values({ project_id: project, vim_id: vimId })
    .onConflict((oc) => oc.column('project_id').doUpdateSet({ vim_id: vimId }))
    .execute();
}

/**
 * Changes a VIM (see VimChanges); undefined when it is not visible to `project`. Throws
 * VimNameTaken when the new name is another VIM's of its project.
 */
export async function updateVim(
  db: Database,
  box: SealedBox,
  id: string,
  changes: VimChanges,
  project?: string,
): Promise<VimRecord | undefined> {
  return inTransaction(db, async (trx) => {
    const row = await rowVisible(trx, id, project);
    if (!row) return undefined;
    if (changes.name !== undefined) await refuseTakenName(trx, row.project_id, changes.name, id);
    const connection =
      changes.interfaceInfo !== undefined || changes.accessInfo !== undefined
        ? sealConnection(box, changes.interfaceInfo, changes.accessInfo)
        : {};
    await trx
      .updateTable('vims')
      .set({
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...connection,
        ...(changes.zones !== undefined ? { zones: JSON.stringify(changes.zones) } : {}),
        updated_at: new Date().toISOString(),
      })
      .where('id', '=', id)
      .execute();
    if (changes.isDefault === true) await setDefault(trx, row.project_id, id);
    if (changes.isDefault === false) await trx.deleteFrom('default_vims').where('vim_id', '=', id).execute();
    const updated = await trx.selectFrom('vims').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return recordOf(updated, await defaultIds(trx));
  });
}

/** The VIM a project itself made its default (not the shared fallback). */
export async function ownDefaultVimId(db: Executor, project: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('default_vims')
    .select('vim_id')
    .where('project_id', '=', project)
    .executeTakeFirst();
  return row?.vim_id;
}

/** Makes a visible VIM the default of `project`; false when it is not visible there. */
export async function setDefaultVim(db: Database, project: string, vimId: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    if (!(await rowVisible(trx, vimId, project))) return false;
    await setDefault(trx, project, vimId);
    return true;
  });
}

/**
 * Deletes a VIM (and its default mark); false when it is not visible to `project`. `refuse` runs
 * in the deleting transaction once the VIM is found and throws to keep it (e.g. while instances
 * use it): the registry does not know who uses a VIM, its callers do. The row is locked first
 * (`FOR UPDATE` on PostgreSQL; SQLite's writing transactions are exclusive), so that `refuse`
 * sees every user that recorded the VIM under a shared lock (`holdVims` in the LCM engine) and
 * none can record it until this transaction ends.
 */
export async function deleteVim(
  db: Database,
  id: string,
  options: { project?: string; refuse?: (trx: Executor) => Promise<void> } = {},
): Promise<boolean> {
  const { project, refuse } = options;
  return inTransaction(db, async (trx) => {
    let locking = trx.selectFrom('vims').select('project_id').where('id', '=', id);
    if (db.dialect === 'postgres') locking = locking.forUpdate();
    const row = await locking.executeTakeFirst();
    const visible = project === undefined || row?.project_id === project;
    if (!row || !visible) return false;
    await refuse?.(trx);
    await trx.deleteFrom('default_vims').where('vim_id', '=', id).execute();
    await trx.deleteFrom('vims').where('id', '=', id).execute();
    return true;
  });
}

/** The default VIM's id of a project: its own, else the shared default. */
export async function defaultVimId(db: Executor, project: string): Promise<string | undefined> {
  const rows = await db
    .selectFrom('default_vims')
    .select(['project_id', 'vim_id'])
    .where('project_id', 'in', [project, SHARED_PROJECT])
    .execute();
  return (rows.find((r) => r.project_id === project) ?? rows.find((r) => r.project_id === SHARED_PROJECT))
    ?.vim_id;
}

/** A VIM a driver registers for every project at start (the simulated VIM). */
export interface BuiltInVim {
  name: string;
  vimType: string;
  description: string;
}

/**
 * Registers `vim` as the shared default when there is no shared default (at start; safe when
 * several processes start at once).
 */
export async function ensureSharedDefaultVim(db: Database, vim: BuiltInVim): Promise<void> {
  const now = new Date().toISOString();
  await inTransaction(db, async (trx) => {
    const current = await trx
      .selectFrom('default_vims')
      .select('vim_id')
      .where('project_id', '=', SHARED_PROJECT)
      .executeTakeFirst();
    if (current) return;
    let row = await trx
      .selectFrom('vims')
      .select('id')
      .where('project_id', '=', SHARED_PROJECT)
      .where('name', '=', vim.name)
      .executeTakeFirst();
    if (!row) {
      row = { id: randomUUID() };
      await trx
        .insertInto('vims')
        .values({
          id: row.id,
          project_id: SHARED_PROJECT,
          name: vim.name,
          vim_type: vim.vimType,
          description: vim.description,
          interface_info: '{}',
          extra: '{}',
          sealed_secrets: null,
          created_at: now,
          zones: null,
          updated_at: null,
        })
        .onConflict((oc) => oc.columns(['project_id', 'name']).doNothing())
        .execute();
      row = await trx
        .selectFrom('vims')
        .select('id')
        .where('project_id', '=', SHARED_PROJECT)
        .where('name', '=', vim.name)
        .executeTakeFirstOrThrow();
    }
    await trx
      .insertInto('default_vims')
      .values({ project_id: SHARED_PROJECT, vim_id: row.id })
      .onConflict((oc) => oc.column('project_id').doNothing())
      .execute();
  });
}

/**
 * Which VNF instances (of every API major) use a registered VIM: those whose resources may be on
 * it. An instance uses the VIM its vimConnectionInfo names once it is INSTANTIATED, and, while an
 * operation holds it (running or FAILED_TEMP, e.g. an instantiate that already created
 * resources), the VIM the operation's grant step resolved. Deleting such a VIM would strand those
 * resources, so the VIM registry refuses it.
 */

import type { Executor } from '../store/db/transaction.ts';
import type { StoredVimConnection } from '../vims/connection-info.ts';
import { parseProgress } from './progress.ts';
import { LCM_STORES } from './store.ts';

export interface VimUsers {
  count: number;
  /** A few of the instance ids, to name in a message. */
  sample: string[];
}

type Vims = Record<string, StoredVimConnection> | undefined;
const names = (vims: Vims, vimId: string) => Object.values(vims ?? {}).some((v) => v.vimId === vimId);

/** The instances using VIM `vimId` (the JSON columns are pre-filtered with LIKE, then parsed). */
export async function vimUsers(db: Executor, vimId: string, sampleSize = 2): Promise<VimUsers> {
  const pattern = `%${vimId}%`;
  const users = new Set<string>();
  for (const store of LCM_STORES) {
    const instances = await db
      .selectFrom(store.instances)
      .select(['id', 'vim_connection_info'])
      .where('instantiation_state', '=', 'INSTANTIATED')
      .where('vim_connection_info', 'like', pattern)
      .execute();
    for (const row of instances) if (names(JSON.parse(row.vim_connection_info), vimId)) users.add(row.id);
    const held = await db
      .selectFrom(store.opOccs)
      .innerJoin(store.instances, `${store.instances}.busy_op_occ_id`, `${store.opOccs}.id`)
      .select([`${store.opOccs}.vnf_instance_id as id`, `${store.opOccs}.progress as progress`])
      .where(`${store.opOccs}.progress`, 'like', pattern)
      .execute();
    for (const row of held) {
      const grant = parseProgress(row.progress).outputs.grant;
      if (names(grant?.vim?.stored, vimId)) users.add(row.id);
    }
  }
  const ids = [...users].sort();
  return { count: ids.length, sample: ids.slice(0, sampleSize) };
}

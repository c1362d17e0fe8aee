/**
 * Recording that an operation (or an instance) uses a registered VIM, so that deleting the VIM and
 * starting to use it are mutually exclusive. Whoever writes a reference to a registered VIM — the
 * grant step's resolved VIM in the op occ, an INSTANTIATED instance's vimConnectionInfo — calls
 * `holdVims` in that same transaction: on PostgreSQL it takes a shared lock on the VIM rows
 * (`FOR SHARE`), which waits for a delete holding the row (`FOR UPDATE`, see `deleteVim`) and makes
 * a later delete wait for this commit, whose users it then counts; on SQLite every writing
 * transaction is exclusive (`BEGIN IMMEDIATE`), so the read alone suffices. A VIM found gone
 * fails the writer with an error naming it, instead of leaving a reference to nothing.
 */

import { ApiError } from '../sol/problem.ts';
import type { DialectName } from '../store/db/database.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { StoredVimConnection } from './connection-info.ts';

/** A VIM the operation resolved (or the instance names) is not registered when it is recorded. */
export class VimVanished extends ApiError {
  constructor(vimId: string, key: string) {
    super(
      422,
      `VIM ${vimId} (vimConnectionInfo ${key}) is not registered: it was deleted (or never ` +
        'registered) before the operation could record it. Register the VIM, or name another one ' +
        'in vimConnectionInfo, and start the operation again.',
      { extensions: { vimId } },
    );
  }
}

export async function holdVims(
  trx: Executor,
  dialect: DialectName,
  vims: Record<string, StoredVimConnection>,
): Promise<void> {
  const named = Object.entries(vims).filter(([, v]) => v.vimId) as [
    string,
    StoredVimConnection & { vimId: string },
  ][];
  if (named.length === 0) return;
  let query = trx
    .selectFrom('vims')
    .select('id')
    .where(
      'id',
      'in',
      named.map(([, v]) => v.vimId),
    );
  if (dialect === 'postgres') query = query.forShare();
  const found = new Set((await query.execute()).map((r) => r.id));
  // An entry with its own credentials may name a VIM that was never registered (given in full).
  const gone = named.find(([, v]) => !v.sealedAccessInfo && !found.has(v.vimId));
  if (gone) throw new VimVanished(gone[1].vimId, gone[0]);
}

/**
 * The rule every API that deletes a VIM follows (Bosun's admin API, Tacker's /v1.0/vims): not
 * while VNF instances use it, since their resources live there and would be stranded.
 */
import { vimUsers } from '../../lcm/vim-users.ts';
import { ApiError } from '../../sol/problem.ts';
import type { Executor } from '../../store/db/transaction.ts';

/** 409 naming (some of) the instances that use VIM `id`. */
export async function refuseWhileUsed(trx: Executor, id: string): Promise<void> {
  const users = await vimUsers(trx, id);
  if (users.count === 0) return;
  const more = users.count > users.sample.length ? ', …' : '';
  throw new ApiError(
    409,
    `VIM ${id} is used by ${users.count} VNF instance${users.count === 1 ? '' : 's'} ` +
      `(${users.sample.join(', ')}${more}): terminate ${users.count === 1 ? 'it' : 'them'} ` +
      '(or end their operations) before deleting the VIM.',
    { extensions: { vnfInstanceCount: users.count, vnfInstanceIds: users.sample } },
  );
}

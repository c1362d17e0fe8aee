/**
 * The op occ a timeline request names, in whichever API major holds it (ids are unique across
 * them), as the LCM API would show it: unknown ids, malformed ids and other projects' op occs
 * are all 404.
 */
import type { FastifyRequest } from 'fastify';
import type { OpOccRecord } from '../../../lcm/model.ts';
import { LCM_STORES } from '../../../lcm/store.ts';
import { ApiError } from '../../../sol/problem.ts';
import type { Executor } from '../../../store/db/transaction.ts';
import { canSee } from '../../auth/caller.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loadVisibleOpOcc(request: FastifyRequest, id: string): Promise<OpOccRecord> {
  if (UUID.test(id)) {
    for (const store of LCM_STORES) {
      const found = await store.findOpOcc(request.server.bosun.db.kysely, id);
      if (found && canSee(request.caller, found.projectId)) return found;
      if (found) break;
    }
  }
  throw new ApiError(404, `VNF LCM operation occurrence ${id} does not exist.`);
}

/** The op occ's state now, in whichever major holds it (undefined: gone). */
export async function opOccStateNow(db: Executor, id: string): Promise<string | undefined> {
  for (const store of LCM_STORES) {
    const state = await store.findOpOccState(db, id);
    if (state) return state;
  }
  return undefined;
}

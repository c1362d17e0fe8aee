/**
 * The drift sync on demand (admin only: the bosun:admin scope when authentication is on), what
 * `bosun vnf sync ID` calls:
 *   POST /bosun/v1/vnf_instances/{id}/sync   the instance read back from its VIM now
 * 200 with `synced` (the new instantiatedVnfInfo and vnfLcmOpOccId, the MODIFY_INFO op occ that
 * records the change) or the reason nothing changed:
 * UNCHANGED, NOT_INSTANTIATED, BUSY (an operation holds it), NOT_SUPPORTED (its VIM changes
 * nothing by itself). The periodic sync (kubernetes.syncIntervalMs) does the same.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { storeOfInstance, syncInstance } from '../../../lcm/sync.ts';
import { ApiError } from '../../../sol/problem.ts';

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255 }) });

export function registerInstanceSync(app: FastifyInstance): void {
  app.post(
    '/bosun/v1/vnf_instances/:id/sync',
    { schema: { params: IdParams }, config: { sol013: { access: 'admin' } } },
    async (request) => {
      const { id } = request.params as { id: string };
      const { db, vims } = request.server.bosun;
      const found = await storeOfInstance(db, id);
      if (!found) throw new ApiError(404, `VNF instance ${id} does not exist.`);
      return syncInstance({ db, vims }, found.store, id);
    },
  );
}

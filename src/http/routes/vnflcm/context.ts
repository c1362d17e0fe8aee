/**
 * What the LCM routes of every major share: the LCM service over a major's store (its own tables:
 * a v1 instance is not visible under /vnflcm/v2, nor the reverse), built once per app and major,
 * and loading resources for a request (unknown ids, malformed ids and other projects' resources
 * are all 404).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { OpOccRecord, VnfInstanceRecord } from '../../../lcm/model.ts';
import type { LcmService } from '../../../lcm/service.ts';
import type { LcmStore } from '../../../lcm/store.ts';
import { ApiError } from '../../../sol/problem.ts';
import { canSee } from '../../auth/caller.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const services = new WeakMap<FastifyInstance, Map<LcmStore, LcmService>>();

export function lcmService(app: FastifyInstance, store: LcmStore): LcmService {
  let byStore = services.get(app);
  if (!byStore) {
    byStore = new Map();
    services.set(app, byStore);
  }
  let svc = byStore.get(store);
  if (!svc) {
    const { config, db, box, vims, nfvo } = app.bosun;
    svc = { config, db, box, store, vims, ...(nfvo.packages ? { packageSource: nfvo.packages } : {}) };
    byStore.set(store, svc);
  }
  return svc;
}

export async function loadInstance(
  request: FastifyRequest,
  svc: LcmService,
  id: string,
): Promise<VnfInstanceRecord> {
  const found = UUID.test(id) ? await svc.store.findInstance(svc.db.kysely, id) : undefined;
  if (!found || !canSee(request.caller, found.projectId))
    throw new ApiError(404, `VNF instance ${id} does not exist.`);
  return found;
}

export async function loadOpOcc(request: FastifyRequest, svc: LcmService, id: string) {
  const found = UUID.test(id) ? await svc.store.findOpOccWork(svc.db.kysely, id) : undefined;
  if (!found || !canSee(request.caller, found.opOcc.projectId)) {
    throw new ApiError(404, `VNF LCM operation occurrence ${id} does not exist.`);
  }
  return found as { opOcc: OpOccRecord; progress: typeof found.progress };
}

export const idParam = (request: FastifyRequest) => (request.params as { id: string }).id;

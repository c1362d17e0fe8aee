/**
 * What the /vnflcm/v1 routes share: the LCM service over the v1 store (its own tables: a v1
 * instance is not visible under /vnflcm/v2, nor the reverse), built once per app. Loading
 * resources for a request is the v2 routes' (unknown ids, malformed ids and other projects'
 * resources are all 404).
 */
import type { FastifyInstance } from 'fastify';
import { createInfraDrivers } from '../../../../drivers/infra/registry.ts';
import type { LcmService } from '../../../../lcm/service.ts';
import { LCM_V1 } from '../../../../lcm/store.ts';
import { createVimAccess } from '../../../../lcm/vim-access.ts';

export { idParam, loadInstance, loadOpOcc } from '../v2/context.ts';

const services = new WeakMap<FastifyInstance, LcmService>();

export function lcmServiceV1(app: FastifyInstance): LcmService {
  let svc = services.get(app);
  if (!svc) {
    const { config, db, box } = app.bosun;
    const drivers = createInfraDrivers({ db, config });
    svc = { config, db, box, store: LCM_V1, vims: createVimAccess({ db, box, config, drivers }) };
    services.set(app, svc);
  }
  return svc;
}

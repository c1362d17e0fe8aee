/**
 * The OpenStack infra driver: one Heat stack per VNF instance, each operation in its own file
 * under operations/.
 */
import type { InfraDriver, RollbackableOperation } from '../../contract.ts';
import type { OpenStackDeps } from './deps.ts';
import { health } from './health.ts';
import { changeExtConn } from './operations/change-ext-conn.ts';
import { changeFlavour } from './operations/change-flavour.ts';
import { changeVnfpkg } from './operations/change-vnfpkg.ts';
import { heal } from './operations/heal.ts';
import { instantiate } from './operations/instantiate.ts';
import { operate } from './operations/operate.ts';
import { ROLLBACKS, rollback } from './operations/rollback.ts';
import { scale } from './operations/scale.ts';
import { terminate } from './operations/terminate.ts';
import { zones } from './zones.ts';

export function createOpenStackDriver(deps: OpenStackDeps): InfraDriver {
  return {
    instantiate: (ctx, plan) => instantiate(deps, ctx, plan),
    terminate: (ctx, plan) => terminate(deps, ctx, plan),
    scale: (ctx, plan) => scale(deps, ctx, plan),
    heal: (ctx, plan) => heal(deps, ctx, plan),
    changeFlavour: (ctx, plan) => changeFlavour(deps, ctx, plan),
    changeExtConn: (ctx, plan) => changeExtConn(deps, ctx, plan),
    changeVnfpkg: (ctx, plan) => changeVnfpkg(deps, ctx, plan),
    operate: (ctx, plan) => operate(deps, ctx, plan),
    rollbackable: Object.keys(ROLLBACKS) as RollbackableOperation[],
    rollback: (ctx, operation) => rollback(deps, ctx, operation),
    health: (vim, _instanceId, info) => health(deps, vim, info),
    zones: (vim) => zones(deps, vim),
  };
}

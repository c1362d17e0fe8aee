/**
 * The OpenStack infra driver: one Heat stack per VNF instance, each operation in its own file
 * under operations/. Operations not written yet answer INVALID_REQUEST saying so.
 */
import type { InfraDriver, RollbackableOperation } from '../../contract.ts';
import { InfraError } from '../../contract.ts';
import type { OpenStackDeps } from './deps.ts';
import { health } from './health.ts';
import { instantiate } from './operations/instantiate.ts';
import { ROLLBACKS, rollback } from './operations/rollback.ts';
import { terminate } from './operations/terminate.ts';
import { zones } from './zones.ts';

const notYet = (operation: string) => async (): Promise<never> => {
  throw new InfraError('INVALID_REQUEST', `The OpenStack driver does not support ${operation} yet.`, {
    operation,
  });
};

export function createOpenStackDriver(deps: OpenStackDeps): InfraDriver {
  return {
    instantiate: (ctx, plan) => instantiate(deps, ctx, plan),
    terminate: (ctx, plan) => terminate(deps, ctx, plan),
    scale: notYet('SCALE'),
    heal: notYet('HEAL'),
    changeFlavour: notYet('CHANGE_FLAVOUR'),
    changeExtConn: notYet('CHANGE_EXT_CONN'),
    changeVnfpkg: notYet('CHANGE_VNFPKG'),
    operate: notYet('OPERATE'),
    rollbackable: Object.keys(ROLLBACKS) as RollbackableOperation[],
    rollback: (ctx, operation) => rollback(deps, ctx, operation),
    health: (vim, _instanceId, info) => health(deps, vim, info),
    zones: (vim) => zones(deps, vim),
  };
}

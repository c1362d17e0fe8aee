/**
 * The Kubernetes infra driver: a CNF's manifests applied in a namespace, its pods the VNFCs;
 * each operation in its own file under operations/. Operations a CNF has no meaning for
 * (operate, change flavour, change external connectivity) are refused, as Tacker does.
 */
import { type InfraDriver, InfraError, type RollbackableOperation } from '../../contract.ts';
import type { KubernetesDeps } from './deps.ts';
import { health } from './health.ts';
import { changeVnfpkg } from './operations/change-vnfpkg.ts';
import { heal } from './operations/heal.ts';
import { instantiate } from './operations/instantiate.ts';
import { ROLLBACKS, rollback } from './operations/rollback.ts';
import { scale } from './operations/scale.ts';
import { terminate } from './operations/terminate.ts';
import { sync } from './sync.ts';
import { zones } from './zones.ts';

const unsupported = (operation: string) => async (): Promise<never> => {
  throw new InfraError(
    'INVALID_REQUEST',
    `${operation} is not supported on a Kubernetes VIM (ETSINFV.KUBERNETES.V_1).`,
  );
};

export function createKubernetesDriver(deps: KubernetesDeps): InfraDriver {
  return {
    instantiate: (ctx, plan) => instantiate(deps, ctx, plan),
    terminate: (ctx, plan) => terminate(deps, ctx, plan),
    scale: (ctx, plan) => scale(deps, ctx, plan),
    heal: (ctx, plan) => heal(deps, ctx, plan),
    changeFlavour: unsupported('Change flavour'),
    changeExtConn: unsupported('Change external VNF connectivity'),
    changeVnfpkg: (ctx, plan) => changeVnfpkg(deps, ctx, plan),
    operate: unsupported('Operate (start or stop)'),
    rollbackable: Object.keys(ROLLBACKS) as RollbackableOperation[],
    rollback: (ctx, operation) => rollback(deps, ctx, operation),
    health: (vim, instanceId, info) => health(deps, vim, instanceId, info),
    sync: (vim, instanceId, info) => sync(deps, vim, instanceId, info),
    zones: (vim) => zones(deps, vim),
  };
}

/**
 * The task resources of a VNF instance on every LCM major: the path, the operation it starts and
 * the request schema that validates its body. A major offers a task when its request schemas
 * have that body (/vnflcm/v1, SOL003 v2.6.1, has no ChangeCurrentVnfPkgRequest, so no
 * change_vnfpkg route nor link).
 */
import type { VnfInstanceRecord } from '../../../lcm/model.ts';
import type { Operation } from '../../../sol/lcm-operations.ts';

export interface Task {
  path: string;
  operation: Operation;
  body: string;
}

/** In the order the routes are registered. */
export const TASKS: readonly Task[] = [
  { path: 'instantiate', operation: 'INSTANTIATE', body: 'InstantiateVnfRequest' },
  { path: 'terminate', operation: 'TERMINATE', body: 'TerminateVnfRequest' },
  { path: 'scale', operation: 'SCALE', body: 'ScaleVnfRequest' },
  { path: 'scale_to_level', operation: 'SCALE_TO_LEVEL', body: 'ScaleVnfToLevelRequest' },
  { path: 'heal', operation: 'HEAL', body: 'HealVnfRequest' },
  { path: 'change_flavour', operation: 'CHANGE_FLAVOUR', body: 'ChangeVnfFlavourRequest' },
  { path: 'change_ext_conn', operation: 'CHANGE_EXT_CONN', body: 'ChangeExtVnfConnectivityRequest' },
  { path: 'change_vnfpkg', operation: 'CHANGE_VNFPKG', body: 'ChangeCurrentVnfPkgRequest' },
  { path: 'operate', operation: 'OPERATE', body: 'OperateVnfRequest' },
];

/** The tasks a major's request schemas cover. */
export const tasksOf = (requests: Readonly<Record<string, object>>): readonly Task[] =>
  TASKS.filter((task) => task.body in requests);

/** `_links` of an instance per instantiation state, in the order shown (link name → task path). */
export const TASK_LINKS: Readonly<
  Record<VnfInstanceRecord['instantiationState'], readonly (readonly [string, string])[]>
> = {
  NOT_INSTANTIATED: [['instantiate', 'instantiate']],
  INSTANTIATED: [
    ['terminate', 'terminate'],
    ['scale', 'scale'],
    ['scaleToLevel', 'scale_to_level'],
    ['changeFlavour', 'change_flavour'],
    ['heal', 'heal'],
    ['operate', 'operate'],
    ['changeExtConn', 'change_ext_conn'],
    ['changeCurrentVnfPkg', 'change_vnfpkg'],
  ],
};

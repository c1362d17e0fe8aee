/**
 * SOL003 v3.3.1 representations of the LCM domain (API major v2): the engine's records are
 * already v3.3.1-shaped, so the shapes are the records' own; vimConnectionInfo is a map by id
 * (through the VIM view, which drops accessInfo and secret interfaceInfo keys).
 */

import type { ChangedInfo } from '../../../../lcm/model.ts';
import type { InstantiatedVnfInfo, ResourceChanges } from '../../../../sol/instance-model.ts';
import { vimConnectionInfoView } from '../../../../vims/connection-info.ts';
import type { Task } from '../tasks.ts';
import { type LcmShapes, lcmViews } from '../views.ts';

type Vims = Record<string, unknown>;

const SHAPES_V3_3_1: LcmShapes<Vims, InstantiatedVnfInfo, ResourceChanges, ChangedInfo> = {
  identity: () => ({}),
  vimConnectionInfo: (stored) => {
    const vims = vimConnectionInfoView(stored);
    return Object.keys(vims).length ? vims : undefined;
  },
  instantiatedVnfInfo: (info) => info,
  operationParams: (params) => params,
  resourceChanges: (changes) => changes,
  changedInfo: (changed) => changed,
  changedExtConnectivity: (list) => list,
};

export const viewsV2 = (tasks: readonly Task[]) => lcmViews('v2', tasks, SHAPES_V3_3_1);

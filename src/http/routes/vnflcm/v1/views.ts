/**
 * SOL003 v2.6.1 representations of the LCM domain (API major v1, version 1.3.0). The engine's
 * records are v3.3.1-shaped; the v2.6.1 data comes from ./shapes.ts and src/lcm/majors/v1.ts (vimConnectionInfo
 * as an array, no vnfcInfo, the zone in vnfcResourceInfo metadata, …), and the instance shows
 * the package it uses (vnfPkgId, as Tacker v1 does; SOL003 v2.6.1 modifies it).
 */

import { changedExtConnectivityV1, changedInfoV1, resourceChangesV1 } from '../../../../lcm/majors/v1.ts';
import { vimConnectionInfoViewV1 } from '../../../../vims/connection-info.ts';
import type { Task } from '../tasks.ts';
import { type LcmShapes, lcmViews } from '../views.ts';
import { instantiatedVnfInfoV1, operationParamsV1 } from './shapes.ts';

type Json = Record<string, unknown>;

const SHAPES_V2_6_1: LcmShapes<Json[], Json, Json, Json> = {
  identity: (record) => ({ vnfPkgId: record.vnfPkgId }),
  vimConnectionInfo: (stored) => {
    const vims = vimConnectionInfoViewV1(stored);
    return vims.length ? (vims as unknown as Json[]) : undefined;
  },
  instantiatedVnfInfo: instantiatedVnfInfoV1,
  operationParams: operationParamsV1,
  resourceChanges: (changes) => resourceChangesV1(changes, 'opOcc'),
  changedInfo: changedInfoV1,
  changedExtConnectivity: changedExtConnectivityV1,
};

export const viewsV1 = (tasks: readonly Task[]) => lcmViews('v1', tasks, SHAPES_V2_6_1);

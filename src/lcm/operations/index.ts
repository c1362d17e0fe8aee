/** Every LCM operation type, by its SOL name: the table the API and the engine look up. */
import type { Operation } from '../../sol/lcm-operations.ts';
import type { OperationDef } from '../operation-def.ts';
import { changeExtConn } from './change-ext-conn.ts';
import { changeFlavour } from './change-flavour.ts';
import { changeVnfpkg } from './change-vnfpkg.ts';
import { heal } from './heal.ts';
import { instantiate } from './instantiate.ts';
import { modifyInfo } from './modify-info.ts';
import { operate } from './operate.ts';
import { scale, scaleToLevel } from './scale.ts';
import { terminate } from './terminate.ts';

export const OPERATION_DEFS: Readonly<Record<Operation, OperationDef>> = {
  INSTANTIATE: instantiate,
  TERMINATE: terminate,
  SCALE: scale,
  SCALE_TO_LEVEL: scaleToLevel,
  HEAL: heal,
  OPERATE: operate,
  CHANGE_FLAVOUR: changeFlavour,
  CHANGE_EXT_CONN: changeExtConn,
  CHANGE_VNFPKG: changeVnfpkg,
  MODIFY_INFO: modifyInfo,
};

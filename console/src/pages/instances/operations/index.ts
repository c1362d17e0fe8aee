/**
 * The LCM operations the instance page offers, in order: each is offered when the instance's
 * `_links` name it (the API decides what its state allows) and opens its form.
 */
import { ChangeExtConnForm } from './change-ext-conn.tsx';
import { ChangeFlavourForm } from './change-flavour.tsx';
import { ChangeVnfpkgForm } from './change-vnfpkg.tsx';
import { HealForm } from './heal.tsx';
import { InstantiateForm } from './instantiate.tsx';
import { OperateForm } from './operate.tsx';
import { ScaleForm } from './scale.tsx';
import { ScaleToLevelForm } from './scale-to-level.tsx';
import { TerminateForm } from './terminate.tsx';
import type { OperationSpec } from './types.ts';

export const OPERATIONS: OperationSpec[] = [
  { link: 'instantiate', path: 'instantiate', label: 'Instantiate', Form: InstantiateForm },
  { link: 'scale', path: 'scale', label: 'Scale', Form: ScaleForm },
  { link: 'scaleToLevel', path: 'scale_to_level', label: 'Scale to level', Form: ScaleToLevelForm },
  { link: 'heal', path: 'heal', label: 'Heal', Form: HealForm },
  { link: 'operate', path: 'operate', label: 'Start / stop', Form: OperateForm },
  { link: 'changeFlavour', path: 'change_flavour', label: 'Change flavour', Form: ChangeFlavourForm },
  { link: 'changeExtConn', path: 'change_ext_conn', label: 'Change connectivity', Form: ChangeExtConnForm },
  { link: 'changeCurrentVnfPkg', path: 'change_vnfpkg', label: 'Change package', Form: ChangeVnfpkgForm },
  { link: 'terminate', path: 'terminate', label: 'Terminate', danger: true, Form: TerminateForm },
];

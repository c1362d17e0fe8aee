/**
 * The steps of every LCM operation, as data. Granted operations ask the NFVO first (while the op
 * occ is STARTING), then run the `<op>_start` hook, the infra driver and the `<op>_end` hook
 * (PROCESSING). Only the infra step has a compensation (the driver's rollback of what this op occ
 * did); the rollback hooks run around the compensations (rollback-hooks.ts).
 */
import type { Operation } from '../../sol/lcm-operations.ts';
import type { Step } from '../saga/step.ts';
import { endHookStep } from './end-hook.ts';
import { grantStep } from './grant.ts';
import { infraStep } from './infra.ts';
import type { Run } from './run.ts';
import { startHookStep } from './start-hook.ts';

const GRANTED: readonly Step<Run>[] = [grantStep, startHookStep, infraStep, endHookStep];

export const STEPS: Readonly<Record<Operation, readonly Step<Run>[]>> = {
  INSTANTIATE: GRANTED,
  TERMINATE: GRANTED,
  SCALE: GRANTED,
  SCALE_TO_LEVEL: GRANTED,
  HEAL: GRANTED,
  OPERATE: GRANTED,
  CHANGE_FLAVOUR: GRANTED,
  CHANGE_EXT_CONN: GRANTED,
  CHANGE_VNFPKG: GRANTED,
  MODIFY_INFO: [startHookStep, endHookStep],
};

/** Steps run while the op occ is STARTING (their failure ends it ROLLED_BACK: nothing was changed). */
export const STARTING_STEPS: ReadonlySet<string> = new Set([grantStep.name]);

/** Steps whose effect a rollback undoes. */
export const COMPENSATED: ReadonlySet<string> = new Set(
  Object.values(STEPS)
    .flat()
    .filter((s) => s.compensate)
    .map((s) => s.name),
);

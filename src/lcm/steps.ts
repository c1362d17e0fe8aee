/**
 * The steps of every LCM operation, as data: a table of step names per operation type, and for
 * each step what it does and what undoes it. Granted operations ask the NFVO first (while the op
 * occ is STARTING), then run the `<op>_start` hook, the infra driver and the `<op>_end` hook
 * (PROCESSING). Only the infra step has a compensation (the driver's rollback of what this op occ
 * did); the rollback hooks run around the compensations.
 */
import type { Operation } from '../sol/lcm-operations.ts';

export type StepName = 'grant' | 'start-hook' | 'infra' | 'end-hook';

const GRANTED: readonly StepName[] = ['grant', 'start-hook', 'infra', 'end-hook'];

export const STEPS: Readonly<Record<Operation, readonly StepName[]>> = {
  INSTANTIATE: GRANTED,
  TERMINATE: GRANTED,
  SCALE: GRANTED,
  SCALE_TO_LEVEL: GRANTED,
  HEAL: GRANTED,
  OPERATE: GRANTED,
  CHANGE_FLAVOUR: GRANTED,
  CHANGE_EXT_CONN: GRANTED,
  CHANGE_VNFPKG: GRANTED,
  MODIFY_INFO: ['start-hook', 'end-hook'],
};

/** Steps run while the op occ is STARTING (their failure ends it ROLLED_BACK: nothing was changed). */
export const STARTING_STEPS: ReadonlySet<StepName> = new Set(['grant']);

/** Steps whose effect a rollback undoes. */
export const COMPENSATED: ReadonlySet<StepName> = new Set(['infra']);

/** The Vnflcm hook a step runs, from the operation's hook prefix. */
export const HOOK_OF: Readonly<Partial<Record<StepName, (prefix: string) => string>>> = {
  'start-hook': (p) => `${p}_start`,
  'end-hook': (p) => `${p}_end`,
};

export const ROLLBACK_HOOKS = {
  start: (p: string) => `${p}_rollback_start`,
  end: (p: string) => `${p}_rollback_end`,
} as const;

/**
 * Which task buttons an op occ offers, as data: the states each task is allowed from (the LCM
 * API's own table, src/lcm/op-states.ts) and, for rollback, the op occ's `rollback` link (the API
 * offers it only for operations that can be rolled back). A disabled button says why.
 */

export type OpTask = 'retry' | 'rollback' | 'fail' | 'cancel';

export const OP_TASKS: readonly OpTask[] = ['retry', 'rollback', 'fail', 'cancel'];

export const TASK_STATES: Readonly<Record<OpTask, readonly string[]>> = {
  retry: ['FAILED_TEMP'],
  rollback: ['FAILED_TEMP'],
  fail: ['FAILED_TEMP'],
  cancel: ['STARTING', 'PROCESSING', 'ROLLING_BACK'],
};

/** The buttons: a task, its label and its request body (cancel needs a mode, SOL003 CancelMode). */
export interface OpButton {
  task: OpTask;
  label: string;
  body?: Record<string, unknown>;
  /** What the button does, for its description. */
  does: string;
}

export const OP_BUTTONS: readonly OpButton[] = [
  { task: 'retry', label: 'Retry', does: 'runs the operation again from the step that failed' },
  { task: 'rollback', label: 'Roll back', does: 'undoes what the operation did' },
  { task: 'fail', label: 'Mark failed', does: 'ends the operation as FAILED, leaving what it did' },
  {
    task: 'cancel',
    label: 'Cancel',
    body: { cancelMode: 'GRACEFUL' },
    does: 'stops the operation at its next step',
  },
  {
    task: 'cancel',
    label: 'Cancel now',
    body: { cancelMode: 'FORCEFUL' },
    does: 'stops the operation at once, aborting the step in flight',
  },
];

/** What a refusal says the task does, after "Only … operations can be". */
const TASK_DONE: Readonly<Record<OpTask, string>> = {
  retry: 'retried',
  rollback: 'rolled back',
  fail: 'marked failed',
  cancel: 'cancelled',
};

/** The SOL003 states an op occ stays in while it runs (a timeline is live then). */
export const RUNNING_STATES: readonly string[] = ['STARTING', 'PROCESSING', 'ROLLING_BACK'];
export const FINAL_STATES: readonly string[] = ['COMPLETED', 'FAILED', 'ROLLED_BACK'];

export interface OpOccLike {
  operationState: string;
  isCancelPending?: boolean;
  _links?: Record<string, { href: string } | undefined>;
}

/** undefined when the task may be asked for now; otherwise why not, in words for the button. */
export function taskBlocked(task: OpTask, op: OpOccLike): string | undefined {
  const states = TASK_STATES[task];
  if (!states.includes(op.operationState)) {
    return `Only ${states.join(', ')} operations can be ${TASK_DONE[task]}; this one is ${op.operationState}.`;
  }
  if (task === 'rollback' && !op._links?.rollback) return 'This operation cannot be rolled back.';
  if (task === 'cancel' && op.isCancelPending) return 'Cancelling already.';
  return undefined;
}

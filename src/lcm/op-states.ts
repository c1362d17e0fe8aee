/**
 * The LCM operation occurrence state machine (SOL003 v3.3.1 §5.6.2.2 and Figure 5.6.2.2-1) as
 * data: which states are final, which hold the instance, what each task resource needs, and the
 * notificationStatus of the notification sent on entering a state (START on STARTING, PROCESSING
 * and ROLLING_BACK; RESULT on the others — as SOL specifies, not as Tacker does).
 */
import type { OperationState } from '../sol/lcm-operations.ts';

/** States an op occ is still "in progress" in: the instance is held (busy) by it. */
export const UNFINISHED: readonly OperationState[] = [
  'STARTING',
  'PROCESSING',
  'ROLLING_BACK',
  'FAILED_TEMP',
];

/** Final states: the instance is released. */
export const FINAL: readonly OperationState[] = ['COMPLETED', 'FAILED', 'ROLLED_BACK'];

/** States in which a worker has something to do. */
export const RUNNABLE: readonly OperationState[] = ['STARTING', 'PROCESSING', 'ROLLING_BACK'];

export const NOTIFICATION_STATUS: Readonly<Record<OperationState, 'START' | 'RESULT'>> = {
  STARTING: 'START',
  PROCESSING: 'START',
  ROLLING_BACK: 'START',
  COMPLETED: 'RESULT',
  FAILED_TEMP: 'RESULT',
  FAILED: 'RESULT',
  ROLLED_BACK: 'RESULT',
};

export type OpOccTask = 'retry' | 'rollback' | 'fail' | 'cancel';

interface TaskRule {
  from: readonly OperationState[];
  /** The state the task moves the op occ to (cancel: decided by the runner at the next step boundary). */
  to?: OperationState;
  refusal: string;
}

export const TASKS: Readonly<Record<OpOccTask, TaskRule>> = {
  retry: { from: ['FAILED_TEMP'], to: 'PROCESSING', refusal: 'only a FAILED_TEMP operation can be retried' },
  rollback: {
    from: ['FAILED_TEMP'],
    to: 'ROLLING_BACK',
    refusal: 'only a FAILED_TEMP operation can be rolled back',
  },
  fail: { from: ['FAILED_TEMP'], to: 'FAILED', refusal: 'only a FAILED_TEMP operation can be marked FAILED' },
  cancel: {
    from: ['STARTING', 'PROCESSING', 'ROLLING_BACK'],
    refusal: 'only a STARTING, PROCESSING or ROLLING_BACK operation can be cancelled',
  },
};

/** The 409 detail when `task` is not allowed in `state`, else undefined. */
export function taskRefusal(task: OpOccTask, state: OperationState, id: string): string | undefined {
  const rule = TASKS[task];
  if (rule.from.includes(state)) return undefined;
  return `VNF LCM operation occurrence ${id} is ${state}: ${rule.refusal}.`;
}

/**
 * Where a cancelled op occ goes: from STARTING nothing was done (ROLLED_BACK); from PROCESSING
 * and ROLLING_BACK something may have been (FAILED_TEMP, to be retried, rolled back or failed).
 */
export const CANCELLED_TO: Readonly<Partial<Record<OperationState, OperationState>>> = {
  STARTING: 'ROLLED_BACK',
  PROCESSING: 'FAILED_TEMP',
  ROLLING_BACK: 'FAILED_TEMP',
};

/** Where an op occ whose worker vanished goes (SOL003: as on a VNFM restart). */
export const ABANDONED_TO: Readonly<Partial<Record<OperationState, OperationState>>> = CANCELLED_TO;

/**
 * What the engine records in an op occ while running it, so that a retry resumes at the step that
 * failed and a rollback compensates exactly the steps that ran (started or done).
 */
export type StepStatus = 'started' | 'done';

export interface Progress {
  /** Forward steps by name. */
  steps: Record<string, StepStatus>;
  /** What each step returned (its compensation and later steps read it). */
  outputs: Record<string, unknown>;
  /** Compensations by step name during a rollback. */
  compensated: Record<string, StepStatus>;
  /** Rollback hooks run so far (`<op>_rollback_start` / `_end`). */
  rollbackHooks: Record<string, StepStatus>;
  /** The step that failed last, if any. */
  failedStep?: string;
}

export const emptyProgress = (): Progress => ({ steps: {}, outputs: {}, compensated: {}, rollbackHooks: {} });

export function parseProgress(text: string | null | undefined): Progress {
  if (!text) return emptyProgress();
  return { ...emptyProgress(), ...(JSON.parse(text) as Partial<Progress>) };
}

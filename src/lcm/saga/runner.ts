/**
 * Runs declared steps, recording each one's start, end and output in the op occ's progress before
 * moving on: forward, it skips the steps already done (a retry resumes at the step that failed);
 * backward, it compensates, in reverse, the steps that ran and have a compensation, skipping those
 * already compensated. What a boundary checks and how progress is saved are the caller's.
 */
import type { Progress } from '../progress.ts';
import type { Step } from './step.ts';

export interface SagaControl {
  /** Throws to stop before the next step (lost lease, shutdown, cancel). */
  boundary(): void;
  /** Records progress durably. */
  save(): Promise<void>;
  /** A step (or a compensation, `rollback-<step>`) started (for the timeline). */
  started?(step: string): void;
  /** A step finished (for the log and the timeline). */
  done?(step: string, ms: number): void;
  /** A step failed (for the timeline). */
  failed?(step: string, ms: number, err: unknown): void;
}

/** A step (or its compensation, as `rollback-<step>`) failed with `cause`. */
export class StepFailed extends Error {
  readonly step: string;
  constructor(step: string, cause: unknown) {
    super(`step ${step} failed`, { cause });
    this.step = step;
  }
}

export async function runForward<C>(
  ctx: C,
  progress: Progress,
  steps: readonly Step<C>[],
  control: SagaControl,
): Promise<void> {
  for (const step of steps) {
    if (progress.steps[step.name] === 'done') continue;
    let started: number | undefined;
    try {
      control.boundary();
      progress.steps[step.name] = 'started';
      progress.failedStep = undefined;
      await control.save();
      started = Date.now();
      control.started?.(step.name);
      await step.run(ctx, progress);
      control.done?.(step.name, Date.now() - started);
      started = undefined;
      progress.steps[step.name] = 'done';
      await (step.record ? step.record(ctx) : control.save());
    } catch (err) {
      if (started !== undefined) control.failed?.(step.name, Date.now() - started, err);
      throw new StepFailed(step.name, err);
    }
  }
}

export async function compensate<C>(
  ctx: C,
  progress: Progress,
  steps: readonly Step<C>[],
  control: SagaControl,
): Promise<void> {
  for (const step of [...steps].reverse()) {
    if (!step.compensate || !progress.steps[step.name] || progress.compensated[step.name] === 'done')
      continue;
    const name = `rollback-${step.name}`;
    let started: number | undefined;
    try {
      control.boundary();
      progress.compensated[step.name] = 'started';
      await control.save();
      started = Date.now();
      control.started?.(name);
      await step.compensate(ctx);
      control.done?.(name, Date.now() - started);
      started = undefined;
      progress.compensated[step.name] = 'done';
      delete progress.steps[step.name];
      await control.save();
    } catch (err) {
      if (started !== undefined) control.failed?.(name, Date.now() - started, err);
      throw new StepFailed(name, err);
    }
  }
}

/**
 * A saga step, declared with its compensation: `invoke` does the step's work and returns what it
 * records (typed by the step's name in the op occ's outputs, which later steps and the
 * compensation read back); `compensate` undoes it during a rollback; `record` replaces the plain
 * save of progress when finishing the step must change more of the op occ (the grant enters
 * PROCESSING).
 */
import type { Progress, StepOutputs } from '../progress.ts';

export interface StepDef<C, K extends keyof StepOutputs> {
  name: K;
  invoke(ctx: C): Promise<StepOutputs[K] | undefined>;
  compensate?(ctx: C): Promise<void>;
  record?(ctx: C): Promise<void>;
}

/** A declared step with its output type erased, so that steps of different outputs share a list. */
export interface Step<C> {
  name: keyof StepOutputs;
  /** Runs the step and records its output in `progress`. */
  run(ctx: C, progress: Progress): Promise<void>;
  compensate?(ctx: C): Promise<void>;
  record?(ctx: C): Promise<void>;
}

export function defineStep<C, K extends keyof StepOutputs>(def: StepDef<C, K>): Step<C> {
  return {
    name: def.name,
    async run(ctx, progress) {
      const output = await def.invoke(ctx);
      if (output !== undefined) progress.outputs[def.name] = output;
    },
    ...(def.compensate ? { compensate: def.compensate } : {}),
    ...(def.record ? { record: def.record } : {}),
  };
}

/**
 * The rollback hooks, run once each around the compensations: `<op>_rollback_start` on the
 * instance the failed operation left, `<op>_rollback_end` on the one the rollback restores. Their
 * answer is not kept (a rolled back operation changes nothing).
 */
import type { SagaControl } from '../saga/runner.ts';
import { StepFailed } from '../saga/runner.ts';
import { runHook } from './hook.ts';
import type { Run } from './run.ts';

export async function rollbackHook(run: Run, which: 'start' | 'end', control: SagaControl): Promise<void> {
  if (run.progress.rollbackHooks[which] === 'done') return;
  const step = `rollback-${which}-hook`;
  let started: number | undefined;
  try {
    control.boundary();
    started = Date.now();
    control.started?.(step);
    await runHook(run, `${run.def.hook}_rollback_${which}`, `rollback-${which}`);
    control.done?.(step, Date.now() - started);
    started = undefined;
    run.progress.rollbackHooks[which] = 'done';
    await control.save();
  } catch (err) {
    if (started !== undefined) control.failed?.(step, Date.now() - started, err);
    throw new StepFailed(step, err);
  }
}

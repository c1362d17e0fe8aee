/** The start hook step: runs `<op>_start` (if the flavour declares it) before the VIM work. */
import { defineStep } from '../saga/step.ts';
import { runHook } from './hook.ts';
import type { Run } from './run.ts';

export const startHookStep = defineStep<Run, 'start-hook'>({
  name: 'start-hook',
  invoke: (run) => runHook(run, `${run.def.hook}_start`, 'start'),
});

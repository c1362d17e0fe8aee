/** The end hook step: runs `<op>_end` (if the flavour declares it) on the instance the VIM work left. */
import { defineStep } from '../saga/step.ts';
import { runHook } from './hook.ts';
import type { Run } from './run.ts';

export const endHookStep = defineStep<Run, 'end-hook'>({
  name: 'end-hook',
  invoke: (run) => runHook(run, `${run.def.hook}_end`, 'end'),
});

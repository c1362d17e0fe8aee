/** The simulated VIM's vimType and its configuration block (`sim` in the configuration). */
import type { Config } from '../../../config/load.ts';

export const SIM_VIM_TYPE = 'BOSUN.SIM.V1';

export type SimConfig = Config['sim'];

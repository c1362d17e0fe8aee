/**
 * The simulated VIM as a driver module. At every start it seeds the simulated cloud's topology
 * from the configuration and registers itself as the shared default VIM when there is none
 * (unless sim.registerDefaultVim is off); safe when several processes start at once.
 */
import { ensureSharedDefaultVim } from '../../registry.ts';
import type { DriverModule } from '../module.ts';
import { SIM_VIM_TYPE } from './config.ts';
import { describeSimVim } from './describe.ts';
import { createSimDriver } from './driver.ts';
import { ensureTopology } from './topology.ts';

const DEFAULT_VIM = {
  name: 'bosun-sim',
  vimType: SIM_VIM_TYPE,
  description: 'The simulated VIM embedded in Bosun',
};

export const simDriver: DriverModule = {
  vimTypes: [SIM_VIM_TYPE],
  async prepare(config, deps) {
    await ensureTopology(deps.db, config.sim);
    if (config.sim.registerDefaultVim) await ensureSharedDefaultVim(deps.db, DEFAULT_VIM);
    return createSimDriver({ db: deps.db, sim: config.sim });
  },
  describe: (_vim, _config, deps) => describeSimVim(deps.db),
};

/**
 * What the infrastructure needs at every start: the simulated cloud's topology seeded from the
 * configuration, and the simulated VIM registered as the shared default VIM when there is none
 * (unless sim.registerDefaultVim is off). Safe when several processes start at once.
 */
import type { Config } from '../../../config/load.ts';
import type { Database } from '../../../store/db/database.ts';
import { ensureDefaultSimVim } from '../../registry.ts';
import { ensureTopology } from './topology.ts';

export async function prepareInfra(db: Database, config: Config): Promise<void> {
  await ensureTopology(db, config.sim);
  if (config.sim.registerDefaultVim) await ensureDefaultSimVim(db);
}

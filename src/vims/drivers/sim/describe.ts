/**
 * The simulated VIM's live description (registration check, `bosun vim show`): every zone with
 * its hosts, each host's capacity and what its servers use. Credentials do not matter here: the
 * simulated cloud is Bosun's own.
 */
import type { Database } from '../../../store/db/database.ts';
import type { VimDescription } from '../../description.ts';
import { listHosts } from './inventory.ts';

export async function describeSimVim(db: Database): Promise<VimDescription> {
  const [zones, hosts] = await Promise.all([
    db.kysely.selectFrom('sim_zones').select('name').orderBy('name').execute(),
    listHosts(db),
  ]);
  return {
    zones: zones.map((z) => ({
      name: z.name,
      hosts: hosts
        .filter((h) => h.zone === z.name)
        .map((h) => ({
          name: h.name,
          up: h.state === 'up',
          vcpus: h.capacity.vcpus,
          vcpusUsed: h.used.vcpus,
          ramMb: h.capacity.ramMb,
          ramMbUsed: h.used.ramMb,
        })),
    })),
  };
}

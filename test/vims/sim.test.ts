/** The infra-driver contract suite against the simulated VIM, on SQLite and on PostgreSQL. */
import { loadConfig } from '../../src/config/load.ts';
import { openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { SIM_VIM_TYPE } from '../../src/vims/drivers/sim/config.ts';
import { createSimDriver } from '../../src/vims/drivers/sim/driver.ts';
import { addFault, clearFaults } from '../../src/vims/drivers/sim/faults.ts';
import { crashServer, setZoneExhausted } from '../../src/vims/drivers/sim/incidents.ts';
import { ensureTopology } from '../../src/vims/drivers/sim/topology.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';
import { type ContractTarget, infraContractSuite, type TaggedResource } from './contract-suite.ts';

const TABLES = [
  'sim_servers',
  'sim_volumes',
  'sim_networks',
  'sim_ports',
  'sim_stacks',
  'sim_images',
] as const;

for (const dialect of DIALECTS) {
  infraContractSuite(`simulated VIM on ${dialect}`, async (): Promise<ContractTarget> => {
    const db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 4 });
    await migrate(db);
    const sim = loadConfig({
      env: {},
      overrides: { sim: { operationDelayMs: 1, gracefulWaitCapMs: 20 } },
    }).sim;
    await ensureTopology(db, sim);
    return {
      driver: createSimDriver({ db, sim }),
      vim: { id: 'vim-1', vimId: 'sim', vimType: SIM_VIM_TYPE },
      zones: ['zone-a', 'zone-b'],
      faults: {
        async failCompute(count) {
          const message = 'Simulated Nova failure: the hypervisor refused the server.';
          await addFault(db, { kind: 'server.create', action: 'fail', message, count });
          return message;
        },
        async failComputeRemoval(count) {
          const message = 'Simulated Nova failure: the server could not be deleted.';
          await addFault(db, { kind: 'server.delete', action: 'fail', message, count });
          return message;
        },
        async hangCompute() {
          await addFault(db, { kind: 'server.create', action: 'hang', count: 1 });
        },
        exhaustZone: (zone) => setZoneExhausted(db, zone, true),
        restoreZone: (zone) => setZoneExhausted(db, zone, false),
        breakCompute: (id) => crashServer(db, id, 'kernel panic'),
        async clear() {
          await clearFaults(db);
        },
      },
      async resources(instanceId) {
        const out: TaggedResource[] = [];
        for (const table of TABLES) {
          const rows = await db.kysely
            .selectFrom(table as 'sim_servers')
            .select(['id', 'op_occ_id'])
            .where('instance_id', '=', instanceId)
            .execute();
          for (const r of rows)
            out.push({ type: table, id: r.id, ...(r.op_occ_id ? { opOccId: r.op_occ_id } : {}) });
        }
        return out;
      },
      close: () => db.close(),
    };
  });
}

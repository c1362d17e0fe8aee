/**
 * Fault injection in the simulated VIM's database, on SQLite and PostgreSQL: an injected fault
 * is used exactly `count` times however many calls race for it, `*` matches every kind, and a
 * host coming back up returns its servers to their power state.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.ts';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { createSimDriver } from '../../src/vims/drivers/sim/driver.ts';
import { addFault, listFaults, takeFault } from '../../src/vims/drivers/sim/faults.ts';
import { setHostState } from '../../src/vims/drivers/sim/incidents.ts';
import { listServers } from '../../src/vims/drivers/sim/inventory.ts';
import { ensureTopology } from '../../src/vims/drivers/sim/topology.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';
import { context, grantFor, instantiatePlan, sampleVnfd } from './plans.ts';

const SIM = loadConfig({ env: {}, overrides: { sim: { operationDelayMs: 0 } } }).sim;

for (const dialect of DIALECTS) {
  describe(`simulated VIM faults on ${dialect}`, () => {
    let db: Database;
    before(async () => {
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 8 });
      await migrate(db);
      await ensureTopology(db, SIM);
    });
    after(() => db.close());

    test('a fault of count 3 is taken exactly 3 times by 20 racing calls; * matches any kind', async () => {
      await addFault(db, { kind: 'volume.create', action: 'fail', count: 3 });
      const taken = await Promise.all(Array.from({ length: 20 }, () => takeFault(db, 'volume.create')));
      assert.equal(taken.filter(Boolean).length, 3);
      assert.deepEqual(await listFaults(db), []);
      await addFault(db, { kind: '*', action: 'hang', count: 1, timeoutMs: 5 });
      assert.equal((await takeFault(db, 'port.delete'))?.action, 'hang');
      assert.equal(await takeFault(db, 'port.delete'), undefined);
    });

    test('a host back up returns its servers to ACTIVE or SHUTOFF as they were powered', async () => {
      const vnfd = await sampleVnfd('sol_v2_common__basic_lcms_min.zip');
      const driver = createSimDriver({ db, sim: SIM });
      const vim = { id: 'default', vimType: 'BOSUN.SIM.V1' };
      const plan = instantiatePlan(vnfd);
      const instanceId = randomUUID();
      const made = await driver.instantiate(
        context(vim, vnfd, {
          instanceId,
          grant: grantFor(
            plan.vnfcs.map((v) => v.id),
            'zone-a',
          ),
        }),
        plan,
      );
      const info = made.instantiatedVnfInfo as InstantiatedVnfInfo;
      const [first] = info.vnfcResourceInfo ?? [];
      await driver.operate(context(vim, vnfd, { instanceId, current: info }), {
        changeStateTo: 'STOPPED',
        vnfcs: [first.id],
      });
      const servers = await listServers(db, { instanceId });
      for (const host of new Set(servers.map((s) => s.host))) await setHostState(db, host, 'down');
      assert.ok((await listServers(db, { instanceId })).every((s) => s.status === 'ERROR'));
      for (const host of new Set(servers.map((s) => s.host))) await setHostState(db, host, 'up');
      const back = await listServers(db, { instanceId });
      for (const s of back) {
        assert.equal(s.status, s.vnfcResourceInfoId === first.id ? 'SHUTOFF' : 'ACTIVE');
        assert.equal(s.fault, undefined);
      }
    });
  });
}

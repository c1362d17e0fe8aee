/** The driver table: drivers prepared once at start, found by the vimType they serve. */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.ts';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { InfraError } from '../../src/vims/contract.ts';
import { prepareVimDrivers, VimDriverTable } from '../../src/vims/drivers/index.ts';
import { KUBERNETES_VIM_TYPES } from '../../src/vims/drivers/kubernetes/names.ts';
import { OPENSTACK_VIM_TYPES } from '../../src/vims/drivers/openstack/names.ts';
import { SIM_VIM_TYPE } from '../../src/vims/drivers/sim/config.ts';
import { createSimDriver } from '../../src/vims/drivers/sim/driver.ts';
import { listHosts } from '../../src/vims/drivers/sim/inventory.ts';
import { defaultVimId, listVims } from '../../src/vims/registry.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';

const configWith = (registerDefaultVim: boolean) =>
  loadConfig({ env: {}, overrides: { sim: { registerDefaultVim } } });

for (const dialect of DIALECTS) {
  describe(`driver table (${dialect})`, () => {
    const dbs: Database[] = [];
    after(async () => {
      for (const db of dbs) await db.close();
    });
    async function freshDb(): Promise<Database> {
      const db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 4 });
      dbs.push(db);
      await migrate(db);
      return db;
    }

    test('preparing serves the simulated VIM, seeds its cloud and registers it as the shared default once', async () => {
      const db = await freshDb();
      const config = configWith(true);
      // Two processes starting at once.
      const [drivers] = await Promise.all([
        prepareVimDrivers(config, { db }),
        prepareVimDrivers(config, { db }),
      ]);
      assert.deepEqual(drivers.vimTypes, [SIM_VIM_TYPE, ...OPENSTACK_VIM_TYPES, ...KUBERNETES_VIM_TYPES]);
      assert.ok(drivers.find(SIM_VIM_TYPE));
      assert.ok(drivers.find('ETSINFV.OPENSTACK_KEYSTONE.V_3'), 'OpenStack, under its SOL003 type');
      assert.equal(
        drivers.find('openstack'),
        drivers.find('ETSINFV.OPENSTACK_KEYSTONE.V_3'),
        "and Tacker's legacy one",
      );
      assert.ok(drivers.describer('openstack'), 'which describes its VIMs');
      assert.ok((await listHosts(db)).length > 0, 'the topology is seeded');
      const vims = await listVims(db);
      assert.deepEqual(
        vims.map((v) => [v.name, v.vimType, v.shared, v.isDefault]),
        [['bosun-sim', SIM_VIM_TYPE, true, true]],
      );
      assert.equal(await defaultVimId(db.kysely, 'any-project'), vims[0].id);
    });

    test('with sim.registerDefaultVim off the simulated VIM is served but not registered', async () => {
      const db = await freshDb();
      const drivers = await prepareVimDrivers(configWith(false), { db });
      assert.deepEqual(drivers.vimTypes, [SIM_VIM_TYPE, ...OPENSTACK_VIM_TYPES, ...KUBERNETES_VIM_TYPES]);
      assert.ok((await listHosts(db)).length > 0, 'the topology is seeded');
      assert.deepEqual(await listVims(db), []);
    });

    test('a vimType no driver serves is an INVALID_REQUEST naming the served ones', async () => {
      const db = await freshDb();
      const drivers = await prepareVimDrivers(configWith(false), { db });
      assert.equal(drivers.find('TERRAFORM.V1'), undefined);
      assert.throws(
        () => drivers.get('TERRAFORM.V1'),
        (err: unknown) =>
          err instanceof InfraError &&
          err.code === 'INVALID_REQUEST' &&
          err.message.includes('TERRAFORM.V1') &&
          err.message.includes(
            `Bosun serves ${SIM_VIM_TYPE}, ETSINFV.OPENSTACK_KEYSTONE.V_3, openstack, ETSINFV.KUBERNETES.V_1, kubernetes`,
          ),
      );
    });

    test('two drivers serving one vimType are refused', async () => {
      const db = await freshDb();
      const sim = configWith(false).sim;
      const entry = { vimTypes: [SIM_VIM_TYPE], driver: createSimDriver({ db, sim }) };
      assert.throws(
        () => new VimDriverTable([entry, entry]),
        /two infra drivers serve VIM type BOSUN\.SIM\.V1/,
      );
    });
  });
}

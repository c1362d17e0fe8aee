/**
 * The infra-driver contract suite on the real mini-openstack (SQLite: the driver's only table is
 * its images'). What the OpenStack driver has so far: instantiate, its retry and rollback,
 * terminate, zones; the zone fault is real — the zone filled with servers until Nova finds no host.
 * The sample has no volumes (mini-openstack has no Cinder); VDUs boot mini-openstack's
 * fake-image on m1.tiny, as a grant names them.
 */
import { openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import { openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { createOpenStackDriver } from '../../../src/vims/drivers/openstack/driver.ts';
import { freshDatabaseUrl } from '../../support/databases.ts';
import { miniOpenStack, testPrefix, zonesByRoom } from '../../support/mini-openstack.ts';
import { type ContractTarget, infraContractSuite } from '../contract-suite.ts';
import { cloudResources, removeStacks } from './cloud-view.ts';
import { ZoneFiller } from './zone-filler.ts';

const unsupported = (what: string) => async (): Promise<never> => {
  throw new Error(`mini-openstack cannot be made to ${what}`);
};

infraContractSuite(
  'OpenStack (mini-openstack)',
  async (): Promise<ContractTarget> => {
    const cloud = await miniOpenStack();
    const db = openDatabase({ url: await freshDatabaseUrl('sqlite'), poolSize: 2 });
    await migrate(db);
    const client = openStackClient(cloud.admin, cloud.policy);
    const [image] = await client.glance.images({ name: 'fake-image' });
    const [network] = await client.neutron.networks({ name: 'shared-net' });
    const filler = new ZoneFiller(client, image.id, testPrefix('contract-fill'));
    // The suite leaves its instances; the cloud is shared, so they go when it ends.
    const driver = createOpenStackDriver({ db, policy: cloud.policy });
    const instances = new Set<string>();
    const instantiate = driver.instantiate;
    driver.instantiate = (ctx, plan) => {
      instances.add(ctx.instanceId);
      return instantiate(ctx, plan);
    };
    return {
      driver,
      vim: cloud.admin,
      // The roomiest zone first: the suite places there unless it tests a full zone.
      zones: (await zonesByRoom(cloud)) as [string, string],
      sample: 'functional6.zip',
      assets: {
        softwareImages: { VDU1: image.id, VDU2: image.id },
        computeFlavours: { VDU1: 'm1.tiny', VDU2: 'm1.tiny' },
      },
      extNetwork: network.id,
      faults: {
        failCompute: unsupported('fail a server create'),
        failComputeRemoval: unsupported('fail a server delete'),
        hangCompute: unsupported('hang a server create'),
        exhaustZone: (zone) => filler.fill(zone),
        restoreZone: (zone) => filler.empty(zone),
        breakCompute: unsupported('crash a server'),
        clear: async () => undefined,
      },
      resources: (instanceId) => cloudResources(client, db, instanceId),
      cleanup: (instanceIds) => removeStacks(client, instanceIds),
      async close() {
        await filler.emptyAll();
        await removeStacks(client, [...instances]);
        await db.close();
      },
    };
  },
  { operations: new Set(), faults: new Set(['exhaustZone', 'restoreZone']), timeoutMs: 600_000 },
);

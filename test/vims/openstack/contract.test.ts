/**
 * The infra-driver contract suite on the real mini-openstack (SQLite: the driver's only table is
 * its images'): instantiate, its retry and rollback, terminate, zones, and every other operation
 * and its rollback walked through on one instance (a server takes seconds here), the cloud
 * checked against instantiatedVnfInfo after each step; the zone fault is real — the zone filled
 * with servers until Nova finds no host. Faults mini-openstack cannot make (a failing or hanging
 * server create or delete, a crashed server) are the simulated VIM's part of the suite.
 * The sample has no volumes (mini-openstack has no Cinder); VDUs boot mini-openstack's
 * fake-image on m1.tiny, as a grant names them.
 */
import { Readable } from 'node:stream';
import { openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import { openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { createOpenStackDriver } from '../../../src/vims/drivers/openstack/driver.ts';
import { freshDatabaseUrl } from '../../support/databases.ts';
import { miniOpenStack, testPrefix, zonesByRoom } from '../../support/mini-openstack.ts';
import { assertConsistent } from '../consistency.ts';
import { type ContractTarget, infraContractSuite } from '../contract-suite.ts';
import { flavourOf } from '../plans.ts';
import { assertCloudMatches, cloudResources, removeStacks } from './cloud-view.ts';
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
    const prefix = testPrefix('contract');
    const filler = new ZoneFiller(client, image.id, `${prefix}-fill`);
    const networks: string[] = [];
    const images: string[] = [];
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
      walk: {
        async matches(instanceId, info, model) {
          if (info) assertConsistent(info, flavourOf(model, info.flavourId));
          await assertCloudMatches(client, db, instanceId, info);
        },
        async otherNetwork() {
          const net = await client.neutron.createNetwork({ name: `${prefix}-ext` });
          networks.push(net.id);
          await client.neutron.createSubnet({
            name: `${prefix}-ext`,
            networkId: net.id,
            cidr: '10.78.0.0/24',
          });
          return net.id;
        },
        async otherImage() {
          const made = await client.glance.createImage({
            name: `${prefix}-image`,
            diskFormat: 'raw',
            containerFormat: 'bare',
          });
          images.push(made.id);
          await client.glance.upload(made.id, Readable.from([Buffer.alloc(4096)]));
          return made.id;
        },
        otherFlavours: { VDU1: 'm1.small', VDU2: 'm1.small' },
      },
      async close() {
        try {
          await filler.emptyAll();
          await removeStacks(client, [...instances]);
        } finally {
          for (const id of networks) await client.neutron.deleteNetwork(id);
          for (const id of images) await client.glance.deleteImage(id);
          await db.close();
        }
      },
    };
  },
  {
    operations: new Set(),
    faults: new Set(['exhaustZone', 'restoreZone']),
    lifecycleWalk: true,
    timeoutMs: 1_800_000,
  },
);

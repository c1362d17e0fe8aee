/**
 * The OpenStack driver on mini-openstack for the operation tests: a driver over a throw-away
 * database, plans and grants from a storage-free Tacker sample (mini-openstack has no Cinder)
 * booting fake-image on m1.tiny with external CPs on shared-net, and a check that the cloud
 * holds exactly what instantiatedVnfInfo says (cloud-view.ts).
 * Instances a test makes are terminated when it ends.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { packageBlobKey } from '../../../src/packages/package-record.ts';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { FsBlobStore } from '../../../src/store/blobs/index.ts';
import type { Database } from '../../../src/store/db/database.ts';
import { openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import type {
  GrantedResources,
  InfraDriver,
  InstantiatePlan,
  OperationContext,
  VimConnection,
} from '../../../src/vims/contract.ts';
import { type OpenStackClient, openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { createOpenStackDriver } from '../../../src/vims/drivers/openstack/driver.ts';
import type { Vnfd } from '../../../src/vnfd/model/vnfd.ts';
import { freshDatabaseUrl } from '../../support/databases.ts';
import { miniOpenStack } from '../../support/mini-openstack.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';
import { tempDir } from '../../support/temp.ts';
import { assertConsistent } from '../consistency.ts';
import { context, flavourOf, grantFor, instantiatePlan, sampleVnfd } from '../plans.ts';
import { assertCloudMatches } from './cloud-view.ts';

/** Two VDUs, external CPs, three internal VLs, no storage. */
export const SAMPLE = 'functional6.zip';

export interface Fixture {
  driver: InfraDriver;
  client: OpenStackClient;
  vim: VimConnection;
  db: Database;
  vnfd: Vnfd;
  network: string;
  /** A grant placing `vnfcIds` in `zone` (none: where Nova finds room) with the cloud's image and flavour. */
  grant(vnfcIds: string[], zone?: string): GrantedResources;
  plan(levelId?: string): InstantiatePlan;
  /** A new instance instantiated from `plan` (its templates from package `packageId` when given). */
  instantiate(
    plan?: InstantiatePlan,
    zone?: string,
    packageId?: string,
  ): Promise<{ instanceId: string; info: InstantiatedVnfInfo }>;
  /** The context of the instance's next op occ. */
  next(
    instanceId: string,
    current: InstantiatedVnfInfo,
    fields?: Partial<OperationContext>,
  ): OperationContext;
  /** The cloud holds exactly what `info` says (`model`: the VNFD of its flavour, default the sample's). */
  matches(instanceId: string, info: InstantiatedVnfInfo, model?: Vnfd): Promise<void>;
  close(): Promise<void>;
}

/**
 * `packages`: sample files stored in a blob store under these package ids, so the driver reads
 * their BaseHOTs (without, it generates every template from the VNFD).
 */
export async function openStackFixture(
  options: { sample?: string; packages?: Record<string, string> } = {},
): Promise<Fixture> {
  const cloud = await miniOpenStack();
  const db = openDatabase({ url: await freshDatabaseUrl('sqlite'), poolSize: 2 });
  await migrate(db);
  let blobs: FsBlobStore | undefined;
  if (options.packages) {
    blobs = new FsBlobStore(tempDir('bosun-os-packages-'));
    const now = new Date().toISOString();
    for (const [id, file] of Object.entries(options.packages)) {
      await blobs.put(packageBlobKey(id), createReadStream(join(SAMPLES_DIR, file)), { maxBytes: 2 ** 30 });
      // The onboarded package's row: the driver reads an earlier package's VNFD from it.
      await db.kysely
        .insertInto('vnf_packages')
        .values({
          id,
          project_id: 'test',
          onboarding_state: 'ONBOARDED',
          operational_state: 'ENABLED',
          usage_state: 'IN_USE',
          user_defined_data: '{}',
          vnfd_model: JSON.stringify(await sampleVnfd(file)),
          attempts: 0,
          created_at: now,
          updated_at: now,
          version: 1,
        } as never)
        .execute();
    }
  }
  const client = openStackClient(cloud.admin, cloud.policy);
  const [image] = await client.glance.images({ name: 'fake-image' });
  const [network] = await client.neutron.networks({ name: 'shared-net' });
  assert.ok(image && network, 'mini-openstack has fake-image and shared-net');
  const vnfd = await sampleVnfd(options.sample ?? SAMPLE);
  const driver = createOpenStackDriver({ db, policy: cloud.policy, ...(blobs ? { blobs } : {}) });
  const vim = cloud.admin;
  const instances: { instanceId: string; ctx: OperationContext }[] = [];
  const grant = (vnfcIds: string[], zone?: string): GrantedResources => ({
    ...grantFor(vnfcIds, zone),
    softwareImages: { VDU1: image.id, VDU2: image.id },
    computeFlavours: { VDU1: 'm1.tiny', VDU2: 'm1.tiny' },
  });
  const plan = (levelId?: string): InstantiatePlan => {
    const p = instantiatePlan(vnfd, 'simple', levelId);
    return { ...p, extVirtualLinks: p.extVirtualLinks.map((e) => ({ ...e, resourceId: network.id })) };
  };
  const next = (instanceId: string, current: InstantiatedVnfInfo, fields: Partial<OperationContext> = {}) =>
    context(vim, vnfd, { instanceId, current, grant: grant([]), ...fields });

  async function matches(instanceId: string, info: InstantiatedVnfInfo, model = vnfd): Promise<void> {
    assertConsistent(info, flavourOf(model, info.flavourId));
    await assertCloudMatches(client, db, instanceId, info);
  }

  return {
    driver,
    client,
    vim,
    db,
    vnfd,
    network: network.id,
    grant,
    plan,
    next,
    matches,
    // The shared cloud's zones fill up with everyone's tests: by default Nova picks the host.
    async instantiate(p = plan(), zone?: string, packageId?: string) {
      const instanceId = randomUUID();
      const ctx = context(vim, vnfd, {
        instanceId,
        ...(packageId ? { packageId } : {}),
        grant: grant(
          p.vnfcs.map((v) => v.id),
          zone,
        ),
      });
      instances.push({ instanceId, ctx });
      const result = await driver.instantiate(ctx, p);
      assert.ok(result.instantiatedVnfInfo);
      return { instanceId, info: result.instantiatedVnfInfo };
    },
    // Every instance is terminated even when one fails (a busy Heat), then the first failure is reported.
    async close() {
      const failures: unknown[] = [];
      for (const { ctx } of instances) {
        await driver
          .terminate(ctx, { terminationType: 'FORCEFUL' })
          .catch((err: unknown) => failures.push(err));
      }
      await db.close();
      if (failures.length) throw failures[0];
    },
  };
}

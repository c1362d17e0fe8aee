/**
 * The OpenStack driver on mini-openstack beyond the contract suite: the package's image goes to
 * Glance once and is shared by instances, and leaves with the last of them; after instantiate
 * and terminate the cloud holds exactly what instantiatedVnfInfo says; a failed instantiate
 * (no host anywhere) names the VDU and zone, and its rollback leaves nothing; the rollback of a
 * package change removes the image it uploaded; a VNFD with storage
 * is refused on a cloud without Cinder; health follows Nova's server status.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { packageBlobKey } from '../../../src/packages/package-record.ts';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { FsBlobStore } from '../../../src/store/blobs/index.ts';
import { type Database, openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import { type InfraDriver, InfraError, type OperationContext } from '../../../src/vims/contract.ts';
import { type OpenStackClient, openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { createOpenStackDriver } from '../../../src/vims/drivers/openstack/driver.ts';
import { checksumOf } from '../../../src/vims/drivers/openstack/images.ts';
import type { Vnfd } from '../../../src/vnfd/model/vnfd.ts';
import { freshDatabaseUrl } from '../../support/databases.ts';
import { type MiniOpenStack, miniOpenStack, zonesByRoom } from '../../support/mini-openstack.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';
import { tempDir } from '../../support/temp.ts';
import { context, grantFor, instantiatePlan, MAIN_SAMPLE, sampleVnfd } from '../plans.ts';
import { assertCloudMatches } from './cloud-view.ts';

/** One VDU booting the package's own image, one internal VL. */
const SAMPLE = 'vnflcm2.zip';
const TIMEOUT = { timeout: 600_000 };

describe('OpenStack driver on mini-openstack', () => {
  let cloud: MiniOpenStack;
  let client: OpenStackClient;
  let db: Database;
  let driver: InfraDriver;
  let vnfd: Vnfd;
  const packageId = randomUUID();
  const instances: OperationContext[] = [];
  let roomiest: string;

  before(async () => {
    cloud = await miniOpenStack();
    client = openStackClient(cloud.admin, cloud.policy);
    db = openDatabase({ url: await freshDatabaseUrl('sqlite'), poolSize: 2 });
    await migrate(db);
    const blobs = new FsBlobStore(tempDir('bosun-os-blobs-'));
    await blobs.put(packageBlobKey(packageId), createReadStream(join(SAMPLES_DIR, SAMPLE)), {
      maxBytes: 2 ** 30,
    });
    driver = createOpenStackDriver({ db, blobs, policy: cloud.policy });
    vnfd = await sampleVnfd(SAMPLE);
    [roomiest] = await zonesByRoom(cloud);
  });
  after(async () => {
    // What a failed test left: its stack and the images only it used.
    for (const ctx of instances)
      await driver.terminate({ ...ctx, opOccId: randomUUID() }, { terminationType: 'FORCEFUL' });
    await db.close();
  });

  function newInstance(flavour = 'm1.tiny', zone = roomiest) {
    const instanceId = randomUUID();
    const plan = instantiatePlan(vnfd);
    const grant = {
      ...grantFor(
        plan.vnfcs.map((v) => v.id),
        zone,
      ),
      computeFlavours: { VDU1: flavour },
    };
    const ctx: OperationContext = context(cloud.admin, vnfd, { instanceId, grant, packageId });
    instances.push(ctx);
    return { instanceId, plan, ctx };
  }

  const imagesWithOurChecksum = async () => {
    const sw = vnfd.flavours[0].softwareImages[0];
    return client.glance.images({ bosun_checksum: checksumOf(sw) });
  };

  test(
    'the package image is uploaded once, shared, and leaves with its last instance; the cloud matches the info',
    TIMEOUT,
    async () => {
      const a = newInstance();
      const b = newInstance();
      const infoA = (await driver.instantiate(a.ctx, a.plan)).instantiatedVnfInfo as InstantiatedVnfInfo;
      await assertCloudMatches(client, db, a.instanceId, infoA);
      const [image] = await imagesWithOurChecksum();
      assert.ok(image, 'the image is in Glance, marked with its checksum');
      assert.equal(infoA.vnfcResourceInfo?.[0].metadata?.image, image.id, 'the server boots it');
      assert.equal(infoA.vnfcResourceInfo?.[0].zoneId, roomiest, 'the granted zone');
      assert.match(String(infoA.vnfcResourceInfo?.[0].metadata?.host), /^compute\d$/);

      const infoB = (await driver.instantiate(b.ctx, b.plan)).instantiatedVnfInfo as InstantiatedVnfInfo;
      await assertCloudMatches(client, db, b.instanceId, infoB);
      assert.deepEqual(
        (await imagesWithOurChecksum()).map((i) => i.id),
        [image.id],
        'reused, not uploaded again',
      );
      assert.equal(infoB.vnfcResourceInfo?.[0].metadata?.image, image.id);

      const terminated = await driver.terminate(
        { ...a.ctx, opOccId: randomUUID(), current: infoA },
        { terminationType: 'FORCEFUL' },
      );
      assert.deepEqual(
        terminated.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
        (infoA.vnfcResourceInfo ?? []).map((v) => [v.id, 'REMOVED']),
      );
      await assertCloudMatches(client, db, a.instanceId, undefined);
      assert.equal(
        (await client.glance.image(image.id))?.status,
        'active',
        'still used by the other instance',
      );

      await driver.terminate(
        { ...b.ctx, opOccId: randomUUID(), current: infoB },
        { terminationType: 'GRACEFUL', gracefulTerminationTimeout: 30 },
      );
      await assertCloudMatches(client, db, b.instanceId, undefined);
      assert.equal(await client.glance.image(image.id), undefined, 'gone with its last instance');
    },
  );

  test(
    "a rollback of a package change removes the image it uploaded; the instance's own stays",
    TIMEOUT,
    async () => {
      const [fake] = await client.glance.images({ name: 'fake-image' });
      const run = newInstance();
      const ctx = { ...run.ctx, grant: { ...run.ctx.grant, softwareImages: { VDU1: fake.id } } };
      const info = (await driver.instantiate(ctx, run.plan)).instantiatedVnfInfo as InstantiatedVnfInfo;
      assert.equal(info.vnfcResourceInfo?.[0].metadata?.image, fake.id);
      // The change names no image: the package's is uploaded for it.
      const change = { ...run.ctx, opOccId: randomUUID(), current: info };
      const changed = await driver.changeVnfpkg(change, {
        vnfdId: vnfd.vnf.descriptorId,
        vnfd,
        vnfcs: (info.vnfcResourceInfo ?? []).map((v) => v.id),
      });
      const [uploaded] = await imagesWithOurChecksum();
      assert.ok(uploaded, 'the package image is in Glance');
      assert.equal(changed.instantiatedVnfInfo?.vnfcResourceInfo?.[0].metadata?.image, uploaded.id);
      await assertCloudMatches(client, db, run.instanceId, changed.instantiatedVnfInfo);
      const back = await driver.rollback(change, 'CHANGE_VNFPKG');
      assert.deepEqual(back.instantiatedVnfInfo, info);
      await assertCloudMatches(client, db, run.instanceId, info);
      assert.equal(await client.glance.image(uploaded.id), undefined, 'the uploaded image is gone');
      assert.equal((await client.glance.image(fake.id))?.status, 'active');
      await driver.terminate(
        { ...ctx, opOccId: randomUUID(), current: info },
        { terminationType: 'FORCEFUL' },
      );
    },
  );

  test(
    'no host can take the VDU: NO_VALID_HOST naming the VDU and zone; rollback leaves nothing',
    TIMEOUT,
    async () => {
      const run = newInstance('m1.huge', 'az2');
      let err: unknown;
      try {
        await driver.instantiate(run.ctx, run.plan);
      } catch (e) {
        err = e;
      }
      assert.ok(err instanceof InfraError, String(err));
      assert.equal(err.code, 'NO_VALID_HOST', err.message);
      assert.match(err.message, /No valid host was found/);
      assert.equal(err.detail?.vduId, 'VDU1');
      assert.equal(err.detail?.zone, 'az2');
      assert.equal(err.detail?.vnfcId, run.plan.vnfcs[0].id);
      const rolledBack = await driver.rollback(run.ctx, 'INSTANTIATE');
      assert.equal(rolledBack.instantiatedVnfInfo, undefined);
      await assertCloudMatches(client, db, run.instanceId, undefined);
      // The image it uploaded is gone too, unless another instance still uses it.
      const stillUsed = await db.kysely.selectFrom('openstack_images').select('image_id').execute();
      for (const image of await imagesWithOurChecksum()) {
        assert.ok(
          stillUsed.some((u) => u.image_id === image.id),
          `image ${image.id} is left unused`,
        );
      }
      // Idempotent.
      await driver.rollback(run.ctx, 'INSTANTIATE');
    },
  );

  test(
    'a VNFD with virtual storage on a VIM without Cinder is refused before anything is made',
    TIMEOUT,
    async () => {
      const withStorage = await sampleVnfd(MAIN_SAMPLE);
      const plan = instantiatePlan(withStorage);
      assert.ok(
        plan.vnfcs.some((v) => v.storages.length > 0),
        'the sample has storage',
      );
      const instanceId = randomUUID();
      const [image] = await client.glance.images({ name: 'fake-image' });
      const ctx = context(cloud.admin, withStorage, {
        instanceId,
        packageId,
        grant: {
          ...grantFor(
            plan.vnfcs.map((v) => v.id),
            roomiest,
          ),
          softwareImages: { VDU1: image.id, VDU2: image.id },
          computeFlavours: { VDU1: 'm1.tiny', VDU2: 'm1.tiny' },
        },
      });
      instances.push(ctx);
      await assert.rejects(driver.instantiate(ctx, plan), (err: unknown) => {
        assert.ok(err instanceof InfraError, String(err));
        assert.equal(err.code, 'INVALID_REQUEST');
        assert.match(
          err.message,
          /^The VNFD gives virtual storage to VDU1 \(.+\).*but the VIM has no volume service: its Keystone catalog has no block-storage or volumev3 or volumev2 or volume endpoint \(Cinder\)/,
        );
        return true;
      });
      await assertCloudMatches(client, db, instanceId, undefined);
    },
  );

  test(
    'health follows Nova: ACTIVE, SHUTOFF when stopped, ERROR with its reason, MISSING when gone',
    TIMEOUT,
    async () => {
      const run = newInstance();
      const info = (await driver.instantiate(run.ctx, run.plan)).instantiatedVnfInfo as InstantiatedVnfInfo;
      const [vnfc] = info.vnfcResourceInfo ?? [];
      const id = vnfc.computeResource.resourceId;
      const state = async () => (await driver.health(cloud.admin, run.instanceId, info))[0];
      assert.equal((await state()).state, 'ACTIVE');
      assert.equal((await state()).host, vnfc.metadata?.host);
      await client.nova.action(id, { kind: 'stop' });
      for (let i = 0; i < 120 && (await state()).state !== 'SHUTOFF'; i++) await sleep(250);
      assert.equal((await state()).state, 'SHUTOFF');
      await client.session.call('compute', 'reset state', {
        method: 'POST',
        path: `/servers/${id}/action`,
        json: { 'os-resetState': { state: 'error' } },
      });
      const broken = await state();
      assert.equal(broken.state, 'ERROR');
      assert.ok(broken.reason);
      await client.nova.deleteServer(id);
      for (let i = 0; i < 120 && (await state()).state !== 'MISSING'; i++) await sleep(250);
      assert.equal((await state()).state, 'MISSING');
    },
  );
});

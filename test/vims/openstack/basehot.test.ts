/**
 * A Tacker sample's BaseHOT (StandardUserData: one nested stack per VNFC) through the OpenStack
 * driver on mini-openstack, read from the package's blob: instantiate builds the stack from the
 * package's own templates, a scale out adds a VNFC as its own copy of the VDU resource, and a
 * change of package to another sample with a BaseHOT moves the VNFCs to the new package's image
 * and templates; its rollback restores the first package's. After each step the cloud holds
 * exactly what instantiatedVnfInfo says.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { stackNameOf } from '../../../src/vims/drivers/openstack/names.ts';
import { testPrefix } from '../../support/mini-openstack.ts';
import { flavourOf, newVnfc, PKG_FROM, PKG_TO, sampleVnfd } from '../plans.ts';
import { type Fixture, openStackFixture } from './driver-fixture.ts';

describe('OpenStack driver: a Tacker sample with a BaseHOT', () => {
  let f: Fixture;
  const from = randomUUID();
  const to = randomUUID();
  const prefix = testPrefix('basehot');
  const images: string[] = [];
  before(async () => {
    f = await openStackFixture({ sample: PKG_FROM, packages: { [from]: PKG_FROM, [to]: PKG_TO } });
  });
  after(async () => {
    try {
      await f.close();
    } finally {
      for (const id of images) await f.client.glance.deleteImage(id);
    }
  });

  const topLevel = async (instanceId: string) => {
    const stack = await f.client.heat.findStack(stackNameOf(instanceId));
    assert.ok(stack);
    return f.client.heat.resources(stack);
  };

  test("instantiate, scale out, change package and its rollback run on the package's own templates", async () => {
    const plan = f.plan();
    const { instanceId, info } = await f.instantiate(plan, undefined, from);
    await f.matches(instanceId, info);
    const resources = await topLevel(instanceId);
    // The BaseHOT's own resources, and one copy of the VDU resource per VNFC.
    assert.ok(resources.some((r) => r.resource_name === 'nfvi_node_affinity'));
    for (const v of plan.vnfcs) {
      const r = resources.find((x) => x.resource_name === `${v.vduId}-${v.id}`);
      assert.equal(r?.resource_type, `${v.vduId}.yaml`);
    }

    const add = [newVnfc(flavourOf(f.vnfd), 'VDU1')];
    const scaled = await f.driver.scale(
      f.next(instanceId, info, { grant: f.grant([add[0]?.id as string]), packageId: from }),
      {
        aspects: [{ aspectId: 'VDU1_scale', fromLevel: 0, toLevel: 1 }],
        add,
        remove: [],
        scaleStatus: [{ aspectId: 'VDU1_scale', scaleLevel: 1 }],
      },
    );
    const out = scaled.instantiatedVnfInfo as InstantiatedVnfInfo;
    await f.matches(instanceId, out);
    assert.equal(out.vnfcResourceInfo?.length, (info.vnfcResourceInfo?.length ?? 0) + 1);

    // The new package's VDU1 image, as its grant names it once in Glance.
    const image = await f.client.glance.createImage({
      name: `${prefix}-image`,
      diskFormat: 'raw',
      containerFormat: 'bare',
    });
    images.push(image.id);
    await f.client.glance.upload(image.id, Readable.from([Buffer.alloc(4096)]));
    const target = await sampleVnfd(PKG_TO);
    const vdu1 = (out.vnfcResourceInfo ?? []).filter((v) => v.vduId === 'VDU1').map((v) => v.id);
    const granted = f.grant([]);
    const ctx = f.next(instanceId, out, {
      vnfd: target,
      packageId: to,
      grant: { ...granted, softwareImages: { ...granted.softwareImages, VDU1: image.id } },
    });
    const changed = await f.driver.changeVnfpkg(ctx, {
      vnfdId: target.vnf.descriptorId,
      vnfd: target,
      vnfcs: vdu1,
    });
    const moved = changed.instantiatedVnfInfo as InstantiatedVnfInfo;
    await f.matches(instanceId, moved, target);
    for (const v of moved.vnfcResourceInfo ?? [])
      assert.equal(v.metadata?.image === image.id, v.vduId === 'VDU1');
    assert.deepEqual(changed.changes.affectedVnfcs.map((v) => v.id).sort(), [...vdu1].sort());
    const back = await f.driver.rollback(ctx, 'CHANGE_VNFPKG');
    assert.deepEqual(back.instantiatedVnfInfo, out);
    await f.matches(instanceId, out);
  });
});

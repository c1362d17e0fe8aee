/**
 * The changes and their rollbacks on mini-openstack: external connectivity (the external CPs'
 * ports move to another network and back), the VNF package (servers rebuilt on another image,
 * same servers, and back) and the flavour (the VNF reshaped into another flavour and back).
 * After each step the cloud holds exactly what instantiatedVnfInfo says.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import type { Vnfd } from '../../../src/vnfd/model/vnfd.ts';
import { testPrefix } from '../../support/mini-openstack.ts';
import { context, flavourOf, instantiatePlan } from '../plans.ts';
import { type Fixture, openStackFixture } from './driver-fixture.ts';

/** Each change and its rollback take about a minute on an idle cloud, several on a busy CI machine. */
const TIMEOUT = { timeout: 600_000 };

describe('OpenStack driver: changes and their rollbacks', () => {
  let f: Fixture;
  const prefix = testPrefix('changes');
  const networks: string[] = [];
  const images: string[] = [];
  before(async () => {
    f = await openStackFixture();
  });
  after(async () => {
    try {
      await f.close();
    } finally {
      for (const id of networks) await f.client.neutron.deleteNetwork(id);
      for (const id of images) await f.client.glance.deleteImage(id);
    }
  });

  test(
    'change external connectivity moves the external ports to the new network; rollback moves them back',
    TIMEOUT,
    async () => {
      const plan = f.plan();
      const { instanceId, info } = await f.instantiate(plan);
      const net = await f.client.neutron.createNetwork({ name: `${prefix}-ext` });
      networks.push(net.id);
      await f.client.neutron.createSubnet({ name: `${prefix}-ext`, networkId: net.id, cidr: '10.77.0.0/24' });
      const [link] = plan.extVirtualLinks;
      assert.ok(link);
      const ctx = f.next(instanceId, info);
      const result = await f.driver.changeExtConn(ctx, {
        extVirtualLinks: [{ ...link, resourceId: net.id }],
      });
      const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
      await f.matches(instanceId, out);
      const extPorts = (out.extVirtualLinkInfo ?? []).flatMap((e) => e.extLinkPorts ?? []);
      assert.ok(extPorts.length > 0);
      for (const p of extPorts) assert.equal((await f.client.neutron.port(p.id))?.network_id, net.id);
      assert.ok(result.changes.affectedExtLinkPorts.some((p) => p.changeType === 'ADDED'));

      const rolledBack = await f.driver.rollback(ctx, 'CHANGE_EXT_CONN');
      const back = rolledBack.instantiatedVnfInfo as InstantiatedVnfInfo;
      await f.matches(instanceId, back);
      for (const p of (back.extVirtualLinkInfo ?? []).flatMap((e) => e.extLinkPorts ?? [])) {
        assert.equal((await f.client.neutron.port(p.id))?.network_id, f.network);
      }
      assert.deepEqual(
        back.vnfcResourceInfo?.map((v) => v.computeResource.resourceId),
        info.vnfcResourceInfo?.map((v) => v.computeResource.resourceId),
        'the same servers',
      );
    },
  );

  test(
    'change package rebuilds the named VNFCs on the new image in place; rollback restores the old image',
    TIMEOUT,
    async () => {
      const { instanceId, info } = await f.instantiate();
      const image = await f.client.glance.createImage({
        name: `${prefix}-image`,
        diskFormat: 'raw',
        containerFormat: 'bare',
      });
      images.push(image.id);
      await f.client.glance.upload(image.id, Readable.from([Buffer.alloc(4096)]));
      const vdu1 = (info.vnfcResourceInfo ?? []).filter((v) => v.vduId === 'VDU1');
      const ctx = f.next(instanceId, info, {
        grant: {
          ...f.grant([]),
          softwareImages: { VDU1: image.id, VDU2: f.grant([]).softwareImages.VDU2 as string },
        },
      });
      const result = await f.driver.changeVnfpkg(ctx, {
        vnfdId: f.vnfd.vnf.descriptorId,
        vnfd: f.vnfd,
        vnfcs: vdu1.map((v) => v.id),
      });
      const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
      await f.matches(instanceId, out);
      for (const v of out.vnfcResourceInfo ?? []) {
        const was = info.vnfcResourceInfo?.find((x) => x.id === v.id);
        assert.equal(v.computeResource.resourceId, was?.computeResource.resourceId, 'rebuilt in place');
        assert.equal(v.metadata?.image === image.id, v.vduId === 'VDU1', `image of ${v.id}`);
      }
      assert.deepEqual(
        result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
        vdu1.map((v) => [v.id, 'MODIFIED']).sort(),
      );
      const rolledBack = await f.driver.rollback(ctx, 'CHANGE_VNFPKG');
      assert.deepEqual(rolledBack.instantiatedVnfInfo, info);
      await f.matches(instanceId, info);
    },
  );

  test('change flavour reshapes the VNF into the other flavour; rollback restores it', TIMEOUT, async () => {
    // The sample's flavour twice: `big` runs VDU1 on m1.small.
    const simple = flavourOf(f.vnfd);
    const two: Vnfd = { ...f.vnfd, flavours: [...f.vnfd.flavours, { ...simple, flavourId: 'big' }] };
    const { instanceId, info } = await f.instantiate();
    const target = instantiatePlan(two, 'big');
    target.extVirtualLinks = target.extVirtualLinks.map((e) => ({ ...e, resourceId: f.network }));
    const kept = [...(info.vnfcResourceInfo ?? [])];
    target.vnfcs = target.vnfcs.map((v) => {
      const same = kept.findIndex((k) => k.vduId === v.vduId);
      return same < 0 ? v : { ...v, id: (kept.splice(same, 1)[0] as { id: string }).id };
    });
    const grant = f.grant(target.vnfcs.map((v) => v.id));
    const ctx = context(f.vim, two, {
      instanceId,
      current: info,
      grant: { ...grant, computeFlavours: { VDU1: 'm1.small', VDU2: 'm1.tiny' } },
    });
    const result = await f.driver.changeFlavour(ctx, { newFlavourId: 'big', target });
    const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.equal(out.flavourId, 'big');
    await f.matches(instanceId, out, two);
    for (const v of out.vnfcResourceInfo ?? []) {
      const server = await f.client.nova.server(v.computeResource.resourceId);
      assert.equal(server?.flavor?.original_name, v.vduId === 'VDU1' ? 'm1.small' : 'm1.tiny');
    }
    const rolledBack = await f.driver.rollback(ctx, 'CHANGE_FLAVOUR');
    const back = rolledBack.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.equal(back.flavourId, 'simple');
    await f.matches(instanceId, back, two);
    for (const v of back.vnfcResourceInfo ?? []) {
      assert.equal(
        (await f.client.nova.server(v.computeResource.resourceId))?.flavor?.original_name,
        'm1.tiny',
      );
    }
  });
});

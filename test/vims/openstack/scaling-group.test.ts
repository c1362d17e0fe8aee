/**
 * A Tacker sample whose BaseHOT lays a VDU out as one AutoScalingGroup sized by `desired_capacity`
 * (Tacker's default UserData; sol_v2_common basic_lcms_min: VDU1 in a group with a nested
 * template, VDU2 a plain server at the top) through the OpenStack driver on mini-openstack: the
 * VNFCs are read back from the group's members, a scale out grows the group, a scale in removes
 * exactly the VNFC named (Heat alone would remove the oldest), heal replaces one member's server
 * in place, a scale out interrupted while Heat works converges on its retry (no member twice) and
 * its rollback removes what it added, and after each step the cloud holds exactly what
 * instantiatedVnfInfo says.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import type { ScalePlan } from '../../../src/vims/contract.ts';
import { stackNameOf } from '../../../src/vims/drivers/openstack/names.ts';
import { flavourOf, newVnfc } from '../plans.ts';
import { type Fixture, openStackFixture } from './driver-fixture.ts';

const SAMPLE = 'sol_v2_common__basic_lcms_min.zip';
const ASPECT = 'VDU1_scale';
/** Heat and Nova take seconds per server on a busy machine: the steps take minutes together. */
const TIMEOUT = { timeout: 1_200_000 };

const serversOf = (info: InstantiatedVnfInfo, vduId: string) =>
  (info.vnfcResourceInfo ?? [])
    .filter((v) => v.vduId === vduId)
    .map((v) => [v.id, v.computeResource.resourceId] as const);

describe('OpenStack driver: a BaseHOT with a scaling group per VDU', () => {
  let f: Fixture;
  const packageId = randomUUID();
  before(async () => {
    f = await openStackFixture({ sample: SAMPLE, packages: { [packageId]: SAMPLE } });
  });
  after(async () => {
    await f.close();
  });

  /** Waits until Heat says the instance's stack is in `status` (an action under way), or `done`. */
  async function stackStatus(instanceId: string, status: string, done: () => boolean): Promise<void> {
    while (!done()) {
      const found = await f.client.heat.findStack(stackNameOf(instanceId));
      if (found?.stack_status === status) return;
      assert.ok(found && !found.stack_status.endsWith('_FAILED'), `stack ${found?.stack_status}`);
      await setTimeout(200);
    }
  }

  const scalePlan = (from: number, to: number, fields: Partial<ScalePlan>): ScalePlan => ({
    aspects: [{ aspectId: ASPECT, fromLevel: from, toLevel: to }],
    add: [],
    remove: [],
    scaleStatus: [{ aspectId: ASPECT, scaleLevel: to }],
    ...fields,
  });

  test(
    'the group members are read back, scaled out and in, healed; an interrupted scale out retried, then rolled back',
    TIMEOUT,
    async () => {
      const { instanceId, info } = await f.instantiate(f.plan(), undefined, packageId);
      await f.matches(instanceId, info);
      const stack = await f.client.heat.findStack(stackNameOf(instanceId));
      assert.ok(stack);
      const top = await f.client.heat.resources(stack);
      assert.equal(
        top.find((r) => r.resource_name === 'VDU1_scale_group')?.resource_type,
        'OS::Heat::AutoScalingGroup',
      );
      const [vdu1] = serversOf(info, 'VDU1');
      const [vdu2] = serversOf(info, 'VDU2');
      assert.ok(vdu1 && vdu2, 'one VNFC of each VDU');
      const first = info.vnfcResourceInfo?.find((v) => v.vduId === 'VDU1');
      assert.equal(first?.metadata?.stackResource, 'VDU1_scale_group');
      assert.equal(typeof first?.metadata?.groupMember, 'string');

      // Scale out by two: the group grows, the first VNFC keeps its server.
      const added = [newVnfc(flavourOf(f.vnfd), 'VDU1'), newVnfc(flavourOf(f.vnfd), 'VDU1')];
      const out = (
        await f.driver.scale(
          f.next(instanceId, info, { grant: f.grant(added.map((v) => v.id)), packageId }),
          scalePlan(0, 2, { add: added }),
        )
      ).instantiatedVnfInfo as InstantiatedVnfInfo;
      await f.matches(instanceId, out);
      const three = serversOf(out, 'VDU1');
      assert.deepEqual(
        three.map(([id]) => id),
        [...added.map((v) => v.id), vdu1[0]],
        'newest first, the new VNFCs with the ids the engine gave them',
      );
      assert.equal(three[2]?.[1], vdu1[1], 'the first VNFC keeps its server');

      // Scale in by one: the newest VNFC goes, as Tacker removes it; the others keep their servers.
      const newest = three[0] as readonly [string, string];
      const inCtx = f.next(instanceId, out, { packageId });
      const scaledIn = await f.driver.scale(inCtx, scalePlan(2, 1, { remove: [newest[0]] }));
      const two = scaledIn.instantiatedVnfInfo as InstantiatedVnfInfo;
      await f.matches(instanceId, two);
      assert.deepEqual(serversOf(two, 'VDU1'), three.slice(1), 'exactly the VNFC named is removed');
      assert.equal(await f.client.nova.server(newest[1]), undefined, 'its server is deleted');
      assert.deepEqual(
        scaledIn.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
        [[newest[0], 'REMOVED']],
      );

      // Heal the oldest VDU1 VNFC: a new server in the same member, the same ports and addresses.
      const healed = (
        await f.driver.heal(f.next(instanceId, two, { packageId }), {
          vnfcs: [vdu1[0]],
          includeStorage: false,
        })
      ).instantiatedVnfInfo as InstantiatedVnfInfo;
      await f.matches(instanceId, healed);
      const before = two.vnfcResourceInfo?.find((v) => v.id === vdu1[0]);
      const after = healed.vnfcResourceInfo?.find((v) => v.id === vdu1[0]);
      assert.notEqual(after?.computeResource.resourceId, before?.computeResource.resourceId, 'a new server');
      assert.equal(after?.metadata?.groupMember, before?.metadata?.groupMember, 'in the same group member');
      assert.deepEqual(after?.vnfcCpInfo, before?.vnfcCpInfo, 'on the same ports and addresses');
      for (const v of healed.vnfcResourceInfo ?? []) {
        if (v.id === vdu1[0]) continue;
        const was = two.vnfcResourceInfo?.find((x) => x.id === v.id);
        assert.equal(v.computeResource.resourceId, was?.computeResource.resourceId, 'the others are kept');
      }

      // A scale out interrupted while Heat works (the op occ's signal aborted), then retried: the
      // retry converges on the same group, no member twice.
      const more = [newVnfc(flavourOf(f.vnfd), 'VDU1')];
      const outCtx = f.next(instanceId, healed, { grant: f.grant(more.map((v) => v.id)), packageId });
      const interrupted = new AbortController();
      const attempt = f.driver.scale(
        { ...outCtx, signal: interrupted.signal },
        scalePlan(1, 2, { add: more }),
      );
      let settled = false;
      attempt.then(
        () => (settled = true),
        () => (settled = true),
      );
      await stackStatus(instanceId, 'UPDATE_IN_PROGRESS', () => settled);
      assert.equal(settled, false, 'the scale out was still under way in Heat when interrupted');
      interrupted.abort();
      await assert.rejects(attempt, (err: Error & { code?: string }) => err.code === 'CANCELLED');
      const grown = (await f.driver.scale(outCtx, scalePlan(1, 2, { add: more }))).instantiatedVnfInfo;
      await f.matches(instanceId, grown as InstantiatedVnfInfo);
      assert.deepEqual(
        serversOf(grown as InstantiatedVnfInfo, 'VDU1').map(([id]) => id),
        [more[0]?.id, ...serversOf(healed, 'VDU1').map(([id]) => id)],
      );
      const group = (await f.client.heat.resources(stack, { nestedDepth: 1 })).filter((r) =>
        r.links?.some((l) => l.rel === 'stack' && l.href.includes('VDU1_scale_group')),
      );
      assert.equal(group.length, 3, 'three members in the group');

      // Its rollback: the group is back to what it was, the same servers.
      const back = await f.driver.rollback({ ...outCtx, current: grown as InstantiatedVnfInfo }, 'SCALE_OUT');
      assert.deepEqual(back.instantiatedVnfInfo, healed);
      await f.matches(instanceId, healed);
    },
  );
});

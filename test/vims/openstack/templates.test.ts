/**
 * The OpenStack driver's templates against the real Heat of mini-openstack: a template generated
 * from a storage-free VNFD and a Tacker sample's BaseHOT pass Heat's validation and run; per VNFC
 * each server lands in the zone its VNFC was given and carries its VNFC id, and an update that
 * drops one VNFC leaves the other servers untouched.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type OpenStackClient, openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import type { StackRef } from '../../../src/vims/drivers/openstack/client/heat.ts';
import { readBaseHot } from '../../../src/vims/drivers/openstack/templates/base-hot.ts';
import { buildStack } from '../../../src/vims/drivers/openstack/templates/build-stack.ts';
import type {
  StackBuild,
  StackDesign,
  StackVnfc,
} from '../../../src/vims/drivers/openstack/templates/design.ts';
import { generateHot } from '../../../src/vims/drivers/openstack/templates/generate-hot.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import type { Flavour } from '../../../src/vnfd/model/vnfd.ts';
import { miniOpenStack, testPrefix } from '../../support/mini-openstack.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';
import { flavourOf, newVnfc, sampleVnfd } from '../plans.ts';

const SAMPLE = 'sol_v2_common__basic_lcms_min.zip';

describe('Heat templates on mini-openstack', () => {
  let client: OpenStackClient;
  let flavour: Flavour;
  const prefix = testPrefix('templates');
  const stacks: StackRef[] = [];

  before(async () => {
    const cloud = await miniOpenStack();
    client = openStackClient(cloud.admin, cloud.policy);
    flavour = flavourOf(await sampleVnfd(SAMPLE));
  });
  after(async () => {
    for (const ref of stacks) await client.heat.deleteStack(ref);
    for (const ref of stacks) {
      const left = await client.heat.waitStack(ref);
      if (!left || left.stack_status === 'DELETE_COMPLETE') continue;
      // A Tacker BaseHOT may let Heat delete a subnet before the nested stacks' ports on it:
      // the ports go first, then the stack again, so the shared cloud keeps nothing of ours.
      for (const r of await client.heat.resources(ref, { nestedDepth: 3 })) {
        if (r.resource_type === 'OS::Neutron::Port' && r.physical_resource_id)
          await client.neutron.deletePort(r.physical_resource_id);
      }
      await client.heat.deleteStack(ref);
      assert.equal((await client.heat.waitStack(ref))?.stack_status ?? 'DELETE_COMPLETE', 'DELETE_COMPLETE');
    }
  });

  const vnfc = (vduId: string, zone: string): StackVnfc => ({
    ...newVnfc(flavour, vduId),
    zone,
    flavour: 'm1.tiny',
    images: { [vduId]: 'fake-image' },
  });

  async function run(name: string, built: StackBuild): Promise<StackRef> {
    const ref = await client.heat.createStack({ name: `${prefix}-${name}`, ...built });
    stacks.push(ref);
    const stack = await client.heat.waitStack(ref, { timeoutMs: 180_000 });
    assert.equal(stack?.stack_status, 'CREATE_COMPLETE', stack?.stack_status_reason);
    return ref;
  }

  /** Every server of the stack (nested stacks included) as Nova shows it. */
  async function servers(ref: StackRef) {
    const resources = await client.heat.resources(ref, { nestedDepth: 3 });
    const ids = resources
      .filter((r) => r.resource_type === 'OS::Nova::Server')
      .map((r) => r.physical_resource_id);
    const found = await Promise.all(ids.map((id) => client.nova.server(id)));
    return found.filter((s) => s !== undefined);
  }

  test('a template generated from the VNFD: each VNFC in its own zone, traced to its id; dropping one keeps the rest', async () => {
    const shared = (await client.neutron.networks({ name: 'shared-net' }))[0];
    assert.ok(shared, 'mini-openstack has shared-net');
    const options = {
      extVirtualLinks: [],
      extManagedVirtualLinks: [],
      serverGroups: [{ id: 'policy_affinity_group', policy: 'soft-affinity' as const, members: [] }],
    };
    const source = generateHot(flavour, options);
    const vnfcs = [vnfc('VDU1', 'az1'), vnfc('VDU1', 'az2'), vnfc('VDU2', 'az1')];
    const design: StackDesign = { flavour, source, vnfcs, extVirtualLinks: [], extManagedVirtualLinks: [] };
    const built = buildStack(design);
    await client.heat.validate(built);
    const ref = await run('generated', built);

    const before = await servers(ref);
    assert.equal(before.length, 3);
    for (const v of vnfcs) {
      const server = before.find((s) => s.metadata?.bosun_vnfc === v.id);
      assert.ok(server, `a server carries VNFC ${v.id}`);
      assert.equal(server['OS-EXT-AZ:availability_zone'], v.zone);
      assert.equal(server.metadata?.bosun_vdu, v.vduId);
      assert.equal(server.status, 'ACTIVE');
    }
    const groups = await client.nova.serverGroups();
    const resources = await client.heat.resources(ref);
    const groupId = resources.find((r) => r.resource_name === 'policy_affinity_group')?.physical_resource_id;
    assert.equal(groups.find((g) => g.id === groupId)?.policy, 'soft-affinity');

    // Scale in the second VDU1 VNFC: the others are kept as they are (same servers).
    const [, dropped, ...rest] = vnfcs;
    const kept = [vnfcs[0] as StackVnfc, ...rest].map(({ id, vduId, cps, storages }) => ({
      id,
      vduId,
      cps,
      storages,
    }));
    const update = buildStack({ ...design, vnfcs: kept, previous: built.parameters.nfv });
    await client.heat.updateStack(ref, update, { patch: false });
    const stack = await client.heat.waitStack(ref, { timeoutMs: 180_000 });
    assert.equal(stack?.stack_status, 'UPDATE_COMPLETE', stack?.stack_status_reason);
    const afterUpdate = await servers(ref);
    assert.deepEqual(
      afterUpdate.map((s) => s.id).sort(),
      before
        .filter((s) => s.metadata?.bosun_vnfc !== dropped?.id)
        .map((s) => s.id)
        .sort(),
    );
  });

  test("a Tacker sample's BaseHOT with default UserData: the scaling group gets the VDU's VNFC count", async () => {
    const opened = await openZipPackage(join(SAMPLES_DIR, SAMPLE));
    assert.ok(opened.files);
    const source = await readBaseHot(opened.files, flavour).finally(() => opened.files?.close());
    assert.ok(source);
    const built = buildStack({
      flavour,
      source,
      vnfcs: [vnfc('VDU1', 'az1'), vnfc('VDU1', 'az1'), vnfc('VDU2', 'az1')],
      extVirtualLinks: [],
      extManagedVirtualLinks: [],
    });
    assert.equal(built.layout, 'per-vdu');
    await client.heat.validate(built);
    const ref = await run('basehot', built);
    const found = await servers(ref);
    assert.equal(found.length, 3);
    const group = (await client.heat.resources(ref)).find((r) => r.resource_name === 'VDU1_scale_group');
    assert.equal(group?.resource_type, 'OS::Heat::AutoScalingGroup');
  });
});

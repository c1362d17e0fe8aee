/**
 * Heal and operate on mini-openstack: heal gives a VNFC a new server on the same ports and leaves
 * the others alone; operate stops and starts servers through Nova. After each step the cloud
 * holds exactly what instantiatedVnfInfo says.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { type Fixture, openStackFixture } from './driver-fixture.ts';

describe('OpenStack driver: heal and operate', () => {
  let f: Fixture;
  before(async () => {
    f = await openStackFixture();
  });
  after(() => f.close());

  test("heal replaces one VNFC's server, keeping its id, ports and addresses; a retry replaces nothing more", async () => {
    const { instanceId, info } = await f.instantiate();
    const [target, other] = info.vnfcResourceInfo ?? [];
    assert.ok(target && other);
    const ctx = f.next(instanceId, info);
    const result = await f.driver.heal(ctx, { vnfcs: [target.id], includeStorage: false });
    const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
    await f.matches(instanceId, out);
    const healed = out.vnfcResourceInfo?.find((v) => v.id === target.id);
    assert.ok(healed);
    assert.notEqual(healed.computeResource.resourceId, target.computeResource.resourceId);
    assert.deepEqual(healed.vnfcCpInfo, target.vnfcCpInfo, 'same CPs on the same ports and addresses');
    assert.deepEqual(
      out.vnfcResourceInfo?.find((v) => v.id === other.id),
      other,
      'the other VNFC is untouched',
    );
    assert.deepEqual(out.vnfcInfo, info.vnfcInfo);
    assert.deepEqual(
      result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
      [[target.id, 'MODIFIED']],
    );
    assert.equal(
      await f.client.nova.server(target.computeResource.resourceId),
      undefined,
      'the old server is gone',
    );
    const again = await f.driver.heal(ctx, { vnfcs: [target.id], includeStorage: false });
    assert.equal(
      again.instantiatedVnfInfo?.vnfcResourceInfo?.find((v) => v.id === target.id)?.computeResource
        .resourceId,
      healed.computeResource.resourceId,
    );
  });

  test('operate stops every server, then starts one', async () => {
    const { instanceId, info } = await f.instantiate();
    const stopped = await f.driver.operate(f.next(instanceId, info), {
      changeStateTo: 'STOPPED',
      stopType: 'FORCEFUL',
      vnfcs: [],
    });
    const out = stopped.instantiatedVnfInfo as InstantiatedVnfInfo;
    assert.equal(out.vnfState, 'STOPPED');
    await f.matches(instanceId, out);
    assert.equal(stopped.changes.affectedVnfcs.length, info.vnfcResourceInfo?.length);
    const one = out.vnfcResourceInfo?.[0]?.id as string;
    const started = await f.driver.operate(f.next(instanceId, out), {
      changeStateTo: 'STARTED',
      vnfcs: [one],
    });
    const back = started.instantiatedVnfInfo as InstantiatedVnfInfo;
    await f.matches(instanceId, back);
    assert.equal(back.vnfcInfo?.find((v) => v.vnfcResourceInfoId === one)?.vnfcState, 'STARTED');
    assert.deepEqual(
      started.changes.affectedVnfcs.map((v) => [v.id, v.changeType]),
      [[one, 'MODIFIED']],
    );
  });
});

/**
 * Scale on mini-openstack: scale out adds VNFCs where the grant places them — another zone — and
 * its rollback removes exactly those; a retry of the same op occ converges without duplicates.
 * After each step the cloud holds exactly what instantiatedVnfInfo says. (Scale in of the VNFCs
 * the engine names is the contract walk's, contract.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { flavourOf, newVnfc } from '../plans.ts';
import { type Fixture, openStackFixture } from './driver-fixture.ts';

const serverIds = (info: InstantiatedVnfInfo) =>
  (info.vnfcResourceInfo ?? []).map((v) => v.computeResource.resourceId);

describe('OpenStack driver: scale', () => {
  let f: Fixture;
  before(async () => {
    f = await openStackFixture();
  });
  after(() => f.close());

  test('scale out in another zone, retried, then rolled back to exactly what was there', async () => {
    const { instanceId, info } = await f.instantiate();
    await f.matches(instanceId, info);
    const add = [newVnfc(flavourOf(f.vnfd), 'VDU2'), newVnfc(flavourOf(f.vnfd), 'VDU2')];
    const ctx = f.next(instanceId, info, {
      grant: f.grant(
        add.map((v) => v.id),
        'az2',
      ),
    });
    const plan = {
      aspects: [{ aspectId: 'VDU2_scale', fromLevel: 0, toLevel: 2 }],
      add,
      remove: [],
      scaleStatus: [{ aspectId: 'VDU2_scale', scaleLevel: 2 }],
    };
    const result = await f.driver.scale(ctx, plan);
    const out = result.instantiatedVnfInfo as InstantiatedVnfInfo;
    await f.matches(instanceId, out);
    assert.deepEqual(out.scaleStatus, plan.scaleStatus);
    for (const a of add) assert.equal(out.vnfcResourceInfo?.find((v) => v.id === a.id)?.zoneId, 'az2');
    assert.ok(
      add.some((a) => a.id === out.vnfcResourceInfo?.[0]?.id),
      'newest first',
    );
    assert.deepEqual(
      result.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
      add.map((a) => [a.id, 'ADDED']).sort(),
    );
    // The servers that were there are the same servers.
    for (const id of serverIds(info)) assert.ok(serverIds(out).includes(id));

    const again = await f.driver.scale(ctx, plan);
    assert.deepEqual(again.instantiatedVnfInfo, out, 'a retry of a done scale changes nothing');

    const rolledBack = await f.driver.rollback(ctx, 'SCALE_OUT');
    assert.deepEqual(rolledBack.instantiatedVnfInfo, info);
    await f.matches(instanceId, info);
    assert.deepEqual(
      rolledBack.changes.affectedVnfcs.map((v) => [v.id, v.changeType]).sort(),
      add.map((a) => [a.id, 'REMOVED']).sort(),
    );
    for (const id of serverIds(out).filter((id) => !serverIds(info).includes(id))) {
      assert.equal(await f.client.nova.server(id), undefined, `server ${id} of the scale out is gone`);
    }
    const twice = await f.driver.rollback(ctx, 'SCALE_OUT');
    assert.deepEqual(twice.instantiatedVnfInfo, info, 'a second rollback finds nothing to undo');
  });
});

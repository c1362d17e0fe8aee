/**
 * change_vnfpkg to the instance's own vnfdId is accepted, as Tacker accepts it (a rolling
 * re-deploy of the same package), over real HTTP on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lcmServer, packageUsage } from '../http/vnflcm/lcm-server.ts';
import { createInstance, getInstance, INSTANTIATE, runTask } from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';

for (const dialect of DIALECTS) {
  describe(`change_vnfpkg to the same VNFD (${dialect})`, () => {
    const lcm = lcmServer(dialect);

    test('is accepted and completes; the instance keeps its VNFD, VNFCs and package', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const inst = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(inst.operationState, 'COMPLETED', JSON.stringify(inst.error));
      const before = await getInstance(lcm.url, instance.id);
      const vnfcs = (before.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.id).sort();
      assert.ok(vnfcs.length > 0);

      const op = await runTask(lcm.url, instance.id, 'change_vnfpkg', { vnfdId: lcm.vnfdId });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      assert.equal(op.changedInfo?.vnfdId, lcm.vnfdId);
      // Nothing differs between the package and itself: the VIM keeps every VNFC as it is.
      assert.deepEqual(op.resourceChanges?.affectedVnfcs ?? [], []);
      const after = await getInstance(lcm.url, instance.id);
      assert.equal(after.vnfdId, lcm.vnfdId);
      assert.deepEqual((after.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.id).sort(), vnfcs);
      assert.equal(await packageUsage(lcm.url, lcm.pkgId), 'IN_USE');
    });
  });
}

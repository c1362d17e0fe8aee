/**
 * /vnflcm/v1 (SOL003 v2.6.1) instantiated with a vimConnectionInfo array, on SQLite and
 * PostgreSQL: credentials are sealed and never shown (op occ, instance, lists), the VNFCs' handles
 * name that connection, and the lists filter with the v2.6.1 vocabulary (vimConnectionInfo
 * entries, vnfPkgId; no vnfcInfo). Representations are checked with the ETSI v2.6.1 schemas.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { lcmServer } from './lcm-server.ts';
import { INSTANTIATE } from './lcm-support.ts';
import { createInstanceV1, getInstanceV1, H1, runTaskV1, V1 } from './v1-support.ts';

for (const dialect of DIALECTS) {
  describe(`/vnflcm/v1 vimConnectionInfo (${dialect})`, () => {
    const server = lcmServer(dialect);

    test('instantiate with a v2.6.1 vimConnectionInfo array: credentials are sealed, never shown', async () => {
      const base = server.url;
      const secret = 'v1-secret-value';
      const inst = await createInstanceV1(base, server.vnfdId, { vnfInstanceName: 'with-vim' });
      const vim = {
        id: 'vim1',
        vimType: 'BOSUN.SIM.V1',
        interfaceInfo: { endpoint: 'http://sim.invalid', password: secret },
        accessInfo: { username: 'u', password: secret },
      };
      const op = await runTaskV1(base, inst.id, 'instantiate', { ...INSTANTIATE, vimConnectionInfo: [vim] });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      assert.deepEqual(op.operationParams.vimConnectionInfo, [
        { id: 'vim1', vimType: 'BOSUN.SIM.V1', interfaceInfo: { endpoint: 'http://sim.invalid' } },
      ]);
      assert.equal(JSON.stringify(op).includes(secret), false);
      const now = await getInstanceV1(base, inst.id);
      assert.deepEqual(now.vimConnectionInfo, [
        { id: 'vim1', vimType: 'BOSUN.SIM.V1', interfaceInfo: { endpoint: 'http://sim.invalid' } },
      ]);
      for (const v of now.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
        assert.equal(v.computeResource.vimConnectionId, 'vim1');
      }
      const listed = await http<unknown[]>(base, 'GET', `${V1}/vnf_instances?all_fields`, { headers: H1 });
      assert.equal(listed.status, 200);
      assert.ok(listed.body.length > 0);
      assert.equal(listed.text.includes(secret), false);
      const occs = await http(base, 'GET', `${V1}/vnf_lcm_op_occs?all_fields`, { headers: H1 });
      assert.equal(occs.text.includes(secret), false);
      // Filters use the v2.6.1 vocabulary: vimConnectionInfo entries, vnfPkgId.
      const byVim = await http<{ id: string }[]>(
        base,
        'GET',
        `${V1}/vnf_instances?filter=(eq,vimConnectionInfo/id,vim1)`,
        { headers: H1 },
      );
      assert.deepEqual(
        byVim.body.map((i) => i.id),
        [inst.id],
      );
      const byPkg = await http<{ id: string }[]>(
        base,
        'GET',
        `${V1}/vnf_instances?filter=(eq,vnfPkgId,${server.pkgId})`,
        { headers: H1 },
      );
      assert.ok(byPkg.body.some((i) => i.id === inst.id));
      assert.ok(
        isProblem(
          await http(base, 'GET', `${V1}/vnf_instances?filter=(eq,instantiatedVnfInfo/vnfcInfo/id,x)`, {
            headers: H1,
          }),
          400,
        ),
      );
      assert.equal(
        (await runTaskV1(base, inst.id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
        'COMPLETED',
      );
    });
  });
}

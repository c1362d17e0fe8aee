/**
 * /vnflcm/v1 and /vnflcm/v2 keep their own instances and op occs (separate tables), on SQLite and
 * PostgreSQL: neither major shows, lists, operates on or deletes the other's.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { lcmServer } from './lcm-server.ts';
import { createInstance, H, INSTANTIATE, runTask, V2 } from './lcm-support.ts';
import { createInstanceV1, H1, runTaskV1, V1 } from './v1-support.ts';

for (const dialect of DIALECTS) {
  describe(`/vnflcm/v1 and /vnflcm/v2 are separate (${dialect})`, () => {
    const server = lcmServer(dialect);

    test('v1 and v2 instances and op occs are separate', async () => {
      const base = server.url;
      const v1 = await createInstanceV1(base, server.vnfdId, { vnfInstanceName: 'only-v1' });
      const v2 = await createInstance(base, server.vnfdId, { vnfInstanceName: 'only-v2' });
      const v1Op = await runTaskV1(base, v1.id, 'instantiate', INSTANTIATE);
      const v2Op = await runTask(base, v2.id, 'instantiate', INSTANTIATE);
      assert.equal(v1Op.operationState, 'COMPLETED');
      assert.equal(v2Op.operationState, 'COMPLETED');
      // Neither major shows the other's instance or op occ, by id or in lists.
      assert.ok(isProblem(await http(base, 'GET', `${V2}/vnf_instances/${v1.id}`, { headers: H }), 404));
      assert.ok(isProblem(await http(base, 'GET', `${V1}/vnf_instances/${v2.id}`, { headers: H1 }), 404));
      assert.ok(isProblem(await http(base, 'GET', `${V2}/vnf_lcm_op_occs/${v1Op.id}`, { headers: H }), 404));
      assert.ok(isProblem(await http(base, 'GET', `${V1}/vnf_lcm_op_occs/${v2Op.id}`, { headers: H1 }), 404));
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V2}/vnf_instances/${v1.id}/terminate`, {
            headers: H,
            body: { terminationType: 'FORCEFUL' },
          }),
          404,
        ),
      );
      const ids = async (path: string, headers: Record<string, string>) =>
        (await http<{ id: string }[]>(base, 'GET', path, { headers })).body.map((i) => i.id);
      const v1Instances = await ids(`${V1}/vnf_instances`, H1);
      const v2Instances = await ids(`${V2}/vnf_instances`, H);
      assert.ok(v1Instances.includes(v1.id) && !v1Instances.includes(v2.id));
      assert.ok(v2Instances.includes(v2.id) && !v2Instances.includes(v1.id));
      const v1Occs = await ids(`${V1}/vnf_lcm_op_occs`, H1);
      const v2Occs = await ids(`${V2}/vnf_lcm_op_occs`, H);
      assert.ok(v1Occs.includes(v1Op.id) && !v1Occs.includes(v2Op.id));
      assert.ok(v2Occs.includes(v2Op.id) && !v2Occs.includes(v1Op.id));
      // Each major's DELETE removes only its own instance.
      await runTaskV1(base, v1.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.ok(isProblem(await http(base, 'DELETE', `${V2}/vnf_instances/${v1.id}`, { headers: H }), 404));
      assert.equal((await http(base, 'DELETE', `${V1}/vnf_instances/${v1.id}`, { headers: H1 })).status, 204);
      await runTask(base, v2.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal((await http(base, 'DELETE', `${V2}/vnf_instances/${v2.id}`, { headers: H })).status, 204);
    });
  });
}

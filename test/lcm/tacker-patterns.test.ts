/**
 * What LCM does with the problems a package made for Tacker onboards with (warnings at
 * onboarding), over real HTTP on SQLite and PostgreSQL: a hook whose artifact is Tacker's
 * host-installed vnflcm_noop driver runs Bosun's built-in no-op driver (other host paths are
 * refused by name: test/http/vnflcm/builtin-mgmt-driver.test.ts); an aspect whose step delta no
 * deltas policy defines instantiates, and only scaling it is refused, naming the delta.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lcmServer } from '../http/vnflcm/lcm-server.ts';
import { createInstance, getInstance, H, INSTANTIATE, runTask, V2 } from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { HOST_DRIVER, patternPackage } from '../vnfd/tacker-patterns.ts';

for (const dialect of DIALECTS) {
  describe(`a hook referenced by its path on the Tacker host (${dialect})`, () => {
    const lcm = lcmServer(dialect, {}, () => patternPackage('hostPathArtifact'));

    test("vnflcm_noop is Bosun's built-in no-op driver: the operation completes", async () => {
      assert.match(HOST_DRIVER, /\/vnflcm_noop\.py$/);
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      assert.equal((await getInstance(lcm.url, instance.id)).instantiationState, 'INSTANTIATED');
    });
  });

  describe(`an aspect whose step delta is not defined (${dialect})`, () => {
    const lcm = lcmServer(dialect, {}, () => patternPackage('undefinedStepDelta'));

    test('the VNF instantiates; scaling the aspect is refused with 422 naming the delta', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const res = await http<{ status: number; detail: string }>(
        lcm.url,
        'POST',
        `${V2}/vnf_instances/${instance.id}/scale`,
        { headers: H, body: { type: 'SCALE_OUT', aspectId: 'VDU1_scale', numberOfSteps: 1 } },
      );
      assert.equal(res.status, 422, res.text);
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/);
      assert.match(
        res.body.detail,
        /Scaling aspect VDU1_scale cannot take step 1 .*step delta delta_missing is not defined by any VduScalingAspectDeltas policy/,
      );
      const after = await getInstance(lcm.url, instance.id);
      assert.deepEqual(
        (after as { instantiatedVnfInfo?: { scaleStatus?: unknown } }).instantiatedVnfInfo?.scaleStatus,
        [{ aspectId: 'VDU1_scale', scaleLevel: 0 }],
      );
    });
  });
}

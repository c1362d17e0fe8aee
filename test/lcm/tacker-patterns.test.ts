/**
 * What LCM does with the problems a package made for Tacker onboards with (warnings at
 * onboarding), over real HTTP on SQLite and PostgreSQL: a hook whose artifact is a path on the
 * Tacker host fails the operation that reaches it, naming the path; an aspect whose step delta no
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

    test('the operation reaching it fails with an error naming the path', async () => {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'FAILED_TEMP');
      const detail = (op.error as { detail?: string } | undefined)?.detail ?? '';
      assert.ok(detail.includes(HOST_DRIVER), detail);
      assert.match(detail, /instantiate_start.*path on the VNFM host rather than a file of the package/);
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

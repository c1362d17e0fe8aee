/**
 * Every /vnflcm/v2 representation validated against Bosun's JSON schemas of SOL003 v3.3.1
 * VnfInstance and VnfLcmOpOcc (ETSI publishes none for v3.x): instances NOT_INSTANTIATED and
 * INSTANTIATED (show and list with all fields), op occs COMPLETED, FAILED_TEMP, ROLLED_BACK, FAILED
 * and PROCESSING; credentials given at instantiate are never shown.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import { VnfInstanceSchema, VnfLcmOpOccSchema } from '../../../src/http/routes/vnflcm/v2/representations.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createInstance, H, INSTANTIATE, onboardOnce, runTask, V2, waitOpOcc } from './lcm-support.ts';

const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const instanceValid: ValidateFunction = ajv.compile(VnfInstanceSchema);
const opOccValid: ValidateFunction = ajv.compile(VnfLcmOpOccSchema);

function assertValid(validate: ValidateFunction, value: unknown, what: string): void {
  assert.ok(
    validate(value),
    `${what}: ${JSON.stringify(validate.errors)}\n${JSON.stringify(value).slice(0, 2000)}`,
  );
}

describe('/vnflcm/v2 representations', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', {
      config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0 } },
    });
  });
  after(() => server.close());

  test('instances and op occs in every state match the v3.3.1 schemas', async () => {
    const vnfdId = (await onboardOnce(server.url)).vnfdId as string;
    const fresh = await createInstance(server.url, vnfdId, { vnfInstanceName: 'n', metadata: { a: 1 } });
    assertValid(instanceValid, fresh, 'created');
    const inst = await createInstance(server.url, vnfdId);
    const secret = 'do-not-show-me';
    const ok = await runTask(server.url, inst.id, 'instantiate', {
      ...INSTANTIATE,
      vimConnectionInfo: {
        vim1: {
          vimType: 'BOSUN.SIM.V1',
          interfaceInfo: { endpoint: 'http://sim.invalid', password: secret },
          accessInfo: { username: 'u', password: secret },
        },
      },
      extensions: { e: 1 },
      vnfConfigurableProperties: { isAutohealEnabled: true },
    });
    assert.equal(ok.operationState, 'COMPLETED', JSON.stringify(ok.error));
    assertValid(opOccValid, ok, 'completed op occ');
    assert.equal(JSON.stringify(ok).includes(secret), false, 'operationParams carry no credentials');
    const shown = await http(server.url, 'GET', `${V2}/vnf_instances/${inst.id}`, { headers: H });
    assertValid(instanceValid, shown.body, 'instantiated');
    assert.equal(shown.text.includes(secret), false);
    assert.deepEqual(Object.keys((shown.body as { vimConnectionInfo: object }).vimConnectionInfo), ['vim1']);

    await http(server.url, 'POST', '/bosun/v1/sim/faults', {
      body: { kind: 'server.create', action: 'fail' },
    });
    const failed = await runTask(server.url, inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
    assert.equal(failed.operationState, 'FAILED_TEMP');
    assertValid(opOccValid, failed, 'FAILED_TEMP op occ');
    await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, { headers: H });
    assertValid(opOccValid, await waitOpOcc(server.url, failed.id), 'ROLLED_BACK op occ');
    await http(server.url, 'POST', '/bosun/v1/sim/faults', {
      body: { kind: 'server.create', action: 'hang', timeoutMs: 30000 },
    });
    const hung = await http(server.url, 'POST', `${V2}/vnf_instances/${inst.id}/scale`, {
      headers: H,
      body: { type: 'SCALE_OUT', aspectId: 'VDU1_scale' },
    });
    const hungId = (hung.headers.get('location') ?? '').split('/').pop() as string;
    assertValid(opOccValid, await waitOpOcc(server.url, hungId, ['PROCESSING']), 'PROCESSING op occ');
    await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${hungId}/cancel`, {
      headers: H,
      body: { cancelMode: 'FORCEFUL' },
    });
    assert.equal((await waitOpOcc(server.url, hungId)).operationState, 'FAILED_TEMP');
    const failedRes = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${hungId}/fail`, { headers: H });
    assertValid(opOccValid, failedRes.body, 'FAILED op occ');

    const instances = await http<unknown[]>(server.url, 'GET', `${V2}/vnf_instances?all_fields`, {
      headers: H,
    });
    for (const item of instances.body) assertValid(instanceValid, item, 'listed instance');
    assert.equal(instances.text.includes(secret), false);
    const occs = await http<unknown[]>(server.url, 'GET', `${V2}/vnf_lcm_op_occs?all_fields`, { headers: H });
    assert.equal(occs.body.length, 3);
    for (const item of occs.body) assertValid(opOccValid, item, 'listed op occ');
    assert.equal(occs.text.includes(secret), false);
  });
});

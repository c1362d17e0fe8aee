/**
 * LCM operations granted by an external NFVO (nfvo.mode external), over real HTTP on SQLite and
 * PostgreSQL against an NFVO server on loopback: the grant's zone and flavour reach the simulated
 * VIM's servers and its image (of a VDU's volume) is the one the VIM is asked for; a 403 ends the op occ ROLLED_BACK
 * with the NFVO's detail; an NFVO failing with 503 leaves it FAILED_TEMP naming the NFVO, and a
 * retry once the NFVO answers completes it.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { SIM_VIM_TYPE } from '../../src/vims/drivers/sim/config.ts';
import { type Answer, grantFor, startFakeNfvo } from '../grant/fake-nfvo.ts';
import { lcmServer, SIM } from '../http/vnflcm/lcm-server.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  runTask,
  V2,
  waitOpOcc,
} from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';

type Decide = (request: Record<string, unknown>) => Answer;

const granting: Decide = (request) => ({
  status: 201,
  body: grantFor(request, { zone: 'zone-b', flavours: { VDU1: 'm1.large' } }),
});

let decide: Decide = granting;
const nfvo = await startFakeNfvo((req) => decide(req.json as Record<string, unknown>));
after(() => nfvo.close());

const EXTERNAL = {
  outbound: { allow: ['127.0.0.1'] },
  nfvo: { mode: 'external', external: { apiRoot: nfvo.url, pollIntervalMs: 20 } },
};

for (const dialect of DIALECTS) {
  describe(`LCM granted by an external NFVO (${dialect})`, () => {
    const lcm = lcmServer(dialect, EXTERNAL);

    test("instantiate asks the NFVO and places the VNFCs in the grant's zone with its flavour", async () => {
      decide = granting;
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const asked = nfvo
        .calls()
        .filter((c) => (c.json as { vnfLcmOpOccId?: string })?.vnfLcmOpOccId === op.id);
      assert.equal(asked.length, 1);
      assert.equal(asked[0].headers.version, '1.4.0');
      assert.equal((asked[0].json as { operation: string }).operation, 'INSTANTIATE');
      assert.equal(op.grantId, `grant-${op.id}`);
      const after = await getInstance(lcm.url, instance.id);
      const vnfcs = after.instantiatedVnfInfo?.vnfcResourceInfo ?? [];
      assert.ok(vnfcs.length >= 2);
      assert.ok(
        vnfcs.every((v) => v.zoneId === 'zone-b'),
        JSON.stringify(vnfcs.map((v) => v.zoneId)),
      );
      const flavors = (await http<{ id: string; name: string }[]>(lcm.url, 'GET', `${SIM}/flavors`)).body;
      const large = flavors.find((f) => f.name === 'm1.large');
      const vdu1 = vnfcs.filter((v) => v.vduId === 'VDU1');
      assert.ok(vdu1.length > 0);
      assert.ok(
        vdu1.every((v) => v.metadata?.flavor === large?.id),
        JSON.stringify(vdu1.map((v) => v.metadata)),
      );
      const others = vnfcs.filter((v) => v.vduId !== 'VDU1');
      assert.ok(others.every((v) => v.metadata?.flavor !== large?.id));
    });

    test("the grant's image is the one the VIM is asked for", async () => {
      decide = (request) => ({
        status: 201,
        body: grantFor(request, {
          zone: 'zone-a',
          images: { 'VDU1-VirtualStorage': 'nfvo-granted-image-404' },
        }),
      });
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'FAILED_TEMP');
      assert.match(op.error?.detail ?? '', /Image nfvo-granted-image-404 could not be found/);
      decide = granting;
      const res = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${op.id}/rollback`, { headers: H });
      assert.equal(res.status, 202, res.text);
      assert.equal((await waitOpOcc(lcm.url, op.id)).operationState, 'ROLLED_BACK');
    });

    test('a VIM the grant names is the one the operation uses and the instance records', async () => {
      const vim = await http<{ id: string }>(lcm.url, 'POST', '/bosun/v1/vims', {
        body: { name: 'nfvo-chosen', vimType: SIM_VIM_TYPE, projectId: 'default' },
      });
      assert.equal(vim.status, 201, vim.text);
      decide = (request) => ({
        status: 201,
        body: {
          ...grantFor(request, { zone: 'zone-a' }),
          vimConnectionInfo: { 'nfvo-vim': { vimId: vim.body.id, vimType: SIM_VIM_TYPE } },
        },
      });
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const recorded = (await getInstance(lcm.url, instance.id)).vimConnectionInfo ?? {};
      assert.deepEqual(Object.keys(recorded), ['nfvo-vim']);
      assert.equal(recorded['nfvo-vim'].vimId, vim.body.id);
    });

    test("a refusal (403) ends the operation ROLLED_BACK with the NFVO's detail", async () => {
      decide = () => ({ status: 403, body: { status: 403, detail: 'Tenant quota exhausted for VDU1' } });
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'ROLLED_BACK');
      assert.equal(op.error?.status, 403);
      assert.equal(
        op.error?.detail,
        `The grant was refused: NFVO ${nfvo.url}: Tenant quota exhausted for VDU1`,
      );
      assert.equal((await getInstance(lcm.url, instance.id)).instantiationState, 'NOT_INSTANTIATED');
    });

    test('an NFVO that fails leaves the operation FAILED_TEMP naming it; retry completes it', async () => {
      decide = () => ({ status: 503, body: { detail: 'NFVO under maintenance' } });
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'FAILED_TEMP');
      assert.equal(op.error?.status, 502);
      assert.equal(op.error?.step, 'grant');
      assert.equal(
        op.error?.detail,
        `NFVO call POST ${nfvo.url}/grant/v1/grants answered HTTP 503: NFVO under maintenance`,
      );
      decide = granting;
      const res = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${op.id}/retry`, { headers: H });
      assert.equal(res.status, 202, res.text);
      const retried = await waitOpOcc(lcm.url, op.id);
      assert.equal(retried.operationState, 'COMPLETED', JSON.stringify(retried.error));
      const vnfcs = (await getInstance(lcm.url, instance.id)).instantiatedVnfInfo?.vnfcResourceInfo ?? [];
      assert.ok(vnfcs.length > 0 && vnfcs.every((v) => v.zoneId === 'zone-b'));
    });
  });
}

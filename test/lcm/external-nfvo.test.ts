/**
 * LCM operations granted by an external NFVO (nfvo.mode external), over real HTTP on SQLite and
 * PostgreSQL against an NFVO server on loopback: the grant's zone and flavour reach the simulated
 * VIM's servers, its image (of a VDU's volume) is the one the VIM is asked for and a VIM it names
 * becomes the instance's; a grant decided later (202) is polled until it comes, one never decided
 * leaves the op occ FAILED_TEMP; a 403 ends it ROLLED_BACK with the NFVO's detail; an NFVO failing
 * with 503 leaves it FAILED_TEMP naming the NFVO, and a retry once the NFVO answers completes it.
 * Hooks see the grant without its VIM's credentials. An instance of a vnfdId the project lacks
 * fetches the NFVO's package (once: a second instance uses it); content not matching the NFVO's
 * checksum is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { deepMerge } from '../../src/config/load.ts';
import { SIM_VIM_TYPE } from '../../src/vims/drivers/sim/config.ts';
import { type Answer, grantFor, type NfvoRequest, packageAnswer, startFakeNfvo } from '../grant/fake-nfvo.ts';
import { type HookPeer, hookPackage, startHookPeer } from '../http/vnflcm/hook-package.ts';
import { LCM_TEST_CONFIG, lcmServer, SIM } from '../http/vnflcm/lcm-server.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  runTask,
  V2,
  waitOpOcc,
} from '../http/vnflcm/lcm-support.ts';
import { sample } from '../http/vnfpkgm/support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { MAIN_SAMPLE, sampleVnfd } from '../vims/plans.ts';

type Decide = (request: Record<string, unknown>, req: NfvoRequest) => Answer;

const granting: Decide = (request) => ({
  status: 201,
  body: grantFor(request, { zone: 'zone-b', flavours: { VDU1: 'm1.large' } }),
});

let decide: Decide = granting;
/** The package the NFVO serves, if any. */
let served: Parameters<typeof packageAnswer>[1] | undefined;
const nfvo = await startFakeNfvo(
  (req) => (served && packageAnswer(req, served)) || decide(req.json as Record<string, unknown>, req),
);
after(() => nfvo.close());
const contentFetches = () => nfvo.calls().filter((c) => c.path.endsWith('/package_content')).length;
const MAIN_VNFD_ID = (await sampleVnfd(MAIN_SAMPLE)).vnf.descriptorId;

const EXTERNAL = {
  outbound: { allow: ['127.0.0.1'] },
  nfvo: { mode: 'external', external: { apiRoot: nfvo.url, pollIntervalMs: 20 } },
};

for (const dialect of DIALECTS) {
  describe(`LCM granted by an external NFVO (${dialect})`, () => {
    // Grants that are never decided give up after 1.5 s here.
    const lcm = lcmServer(dialect, deepMerge(EXTERNAL, { nfvo: { external: { grantTimeoutMs: 1500 } } }));

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

    test('a grant decided later (202) is polled at its Location and the operation completes', async () => {
      decide = (body, req) => {
        if (req.method === 'POST') {
          return {
            status: 202,
            headers: { location: `/grant/v1/grants/async-${body.vnfLcmOpOccId}`, 'retry-after': '0' },
          };
        }
        const posted = nfvo
          .calls()
          .filter((c) => c.method === 'POST')
          .at(-1);
        return { status: 200, body: grantFor(posted?.json as Record<string, unknown>, { zone: 'zone-a' }) };
      };
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      assert.ok(nfvo.calls().some((c) => c.method === 'GET' && c.path === `/grant/v1/grants/async-${op.id}`));
      const vnfcs = (await getInstance(lcm.url, instance.id)).instantiatedVnfInfo?.vnfcResourceInfo ?? [];
      assert.ok(vnfcs.length > 0 && vnfcs.every((v) => v.zoneId === 'zone-a'));
    });

    test('a grant never decided leaves the operation FAILED_TEMP after grantTimeoutMs, naming the NFVO', async () => {
      decide = (_body, req): Answer =>
        req.method === 'POST'
          ? { status: 202, headers: { location: '/grant/v1/grants/undecided' } }
          : { status: 202, headers: { 'retry-after': '0' } };
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'FAILED_TEMP');
      assert.equal(op.error?.status, 504);
      assert.equal(
        op.error?.detail,
        `NFVO ${nfvo.url} did not decide the grant within 1500 ms (nfvo.external.grantTimeoutMs): /grant/v1/grants/undecided still answers 202`,
      );
      decide = granting;
      const res = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${op.id}/fail`, { headers: H });
      assert.equal(res.status, 200, res.text);
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

  describe(`hooks and the grant of an external NFVO (${dialect})`, () => {
    const lcm = lcmServer(dialect, EXTERNAL, () => hookPackage());
    let peer: HookPeer;
    before(async () => {
      peer = await startHookPeer();
    });
    after(() => peer.close());

    test('hooks get the grant without the credentials of the VIM it names', async () => {
      decide = (request) => ({
        status: 201,
        body: {
          ...grantFor(request, { zone: 'zone-a' }),
          vimConnectionInfo: {
            'nfvo-vim': {
              vimType: SIM_VIM_TYPE,
              interfaceInfo: { endpoint: 'https://vim.example/v3', token: 'interface-token-secret' },
              accessInfo: { username: 'vnfm', password: 'nfvo-vim-password' },
            },
          },
        },
      });
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: { key: 'grant-vim', peer: peer.url },
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const seen = peer.calls('grant-vim')[0]?.input as { grant?: { vimConnectionInfo?: unknown } };
      assert.deepEqual(seen.grant?.vimConnectionInfo, {
        'nfvo-vim': { vimType: SIM_VIM_TYPE, interfaceInfo: { endpoint: 'https://vim.example/v3' } },
      });
      const text = JSON.stringify(peer.calls('grant-vim'));
      assert.doesNotMatch(text, /nfvo-vim-password|interface-token-secret|sealed/);
      const recorded = (await getInstance(lcm.url, instance.id)).vimConnectionInfo ?? {};
      assert.deepEqual(recorded['nfvo-vim'], {
        vimType: SIM_VIM_TYPE,
        interfaceInfo: { endpoint: 'https://vim.example/v3' },
      });
    });
  });

  describe(`packages fetched through the external NFVO (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, { config: deepMerge(LCM_TEST_CONFIG, EXTERNAL) });
    });
    after(() => server.close());

    test('an instance of a vnfdId the project lacks fetches the package once, onboards it and instantiates', async () => {
      served = { vnfdId: MAIN_VNFD_ID, zip: sample(MAIN_SAMPLE) };
      const fetched = contentFetches();
      const first = await createInstance(server.url, MAIN_VNFD_ID);
      assert.equal(contentFetches() - fetched, 1);
      const listed = nfvo.calls().filter((c) => c.path.startsWith('/vnfpkgm/v2/onboarded_vnf_packages?'));
      assert.equal(listed.at(-1)?.headers.version, '2.1.0');
      const pkgs = await http<{ vnfdId?: string; onboardingState: string; usageState: string }[]>(
        server.url,
        'GET',
        '/vnfpkgm/v2/vnf_packages',
        { headers: { Version: '2.1.0' } },
      );
      const mine = pkgs.body.filter((p) => p.vnfdId === MAIN_VNFD_ID);
      assert.equal(mine.length, 1, pkgs.text);
      assert.equal(mine[0].onboardingState, 'ONBOARDED');
      assert.equal(mine[0].usageState, 'IN_USE');
      await createInstance(server.url, MAIN_VNFD_ID);
      assert.equal(
        contentFetches() - fetched,
        1,
        'the second instance uses the package fetched for the first',
      );
      decide = granting;
      const op = await runTask(server.url, first.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
    });

    test('content that does not match the checksum the NFVO declared is refused, naming it', async () => {
      served = {
        vnfdId: 'nfvo-mismatch-vnfd',
        zip: sample(MAIN_SAMPLE),
        checksum: { algorithm: 'SHA-256', hash: '0'.repeat(64) },
      };
      const res = await http<{ detail: string }>(server.url, 'POST', `${V2}/vnf_instances`, {
        headers: H,
        body: { vnfdId: 'nfvo-mismatch-vnfd' },
      });
      assert.equal(res.status, 502, res.text);
      assert.match(res.body.detail, /NFVO package nfvo-pkg-nfvo-mismatch-vnfd \(vnfdId nfvo-mismatch-vnfd\)/);
      assert.match(res.body.detail, /does not match the sha-256 checksum the NFVO declared/);
    });

    test('a vnfdId the NFVO does not have either is refused as before', async () => {
      served = { vnfdId: MAIN_VNFD_ID, zip: sample(MAIN_SAMPLE) };
      const res = await http<{ detail: string }>(server.url, 'POST', `${V2}/vnf_instances`, {
        headers: H,
        body: { vnfdId: 'nowhere-vnfd' },
      });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.detail, 'No ONBOARDED VNF package has vnfdId nowhere-vnfd.');
    });
  });
}

/**
 * The whole life of a VNF instance over /vnflcm/v2 on the simulated VIM, from a real Tacker
 * sample onboarded through the package API: create (package IN_USE), instantiate at the default
 * level, scale out and in, scale to a level and to scale levels, heal (SOL002 VNFCs and SOL003
 * whole VNF), operate, change external connectivity, modify (PATCH with If-Match), terminate,
 * delete (package NOT_IN_USE) — with the resulting instance and op occ checked at each step.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { V2_HEADERS as PKG_HEADERS, V2 as PKG_V2 } from '../vnfpkgm/support.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  type Instance,
  type OpOcc,
  onboardOnce,
  runTask,
  startTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';

const counts = (inst: Instance) => {
  const out: Record<string, number> = {};
  for (const v of inst.instantiatedVnfInfo?.vnfcResourceInfo ?? []) out[v.vduId] = (out[v.vduId] ?? 0) + 1;
  return out;
};
const level = (inst: Instance) =>
  inst.instantiatedVnfInfo?.scaleStatus?.find((s) => s.aspectId === 'VDU1_scale')?.scaleLevel;
const changes = (op: OpOcc, kind: 'affectedVnfcs' | 'affectedVirtualLinks' | 'affectedVirtualStorages') =>
  (op.resourceChanges?.[kind] ?? []).map((c) => c.changeType).sort();

for (const dialect of DIALECTS) {
  describe(`VNF instance lifecycle on /vnflcm/v2 (${dialect})`, () => {
    let server: TestServer;
    let vnfdId: string;
    let pkgId: string;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 } },
      });
      const pkg = await onboardOnce(server.url);
      vnfdId = pkg.vnfdId as string;
      pkgId = pkg.id;
    });
    after(() => server.close());

    const usage = async () =>
      (await http<{ usageState: string }>(server.url, 'GET', `${PKG_V2}/${pkgId}`, { headers: PKG_HEADERS }))
        .body.usageState;

    test('create → instantiate → scale → heal → operate → change ext conn → modify → terminate → delete', async () => {
      const base = server.url;
      // Create: NOT_INSTANTIATED, package facts copied, package IN_USE.
      const created = await http<Instance>(base, 'POST', `${V2}/vnf_instances`, {
        headers: H,
        body: {
          vnfdId,
          vnfInstanceName: 'vnf-a',
          vnfInstanceDescription: 'first',
          metadata: { tier: 'gold' },
        },
      });
      assert.equal(created.status, 201);
      const inst = created.body;
      assert.equal(created.headers.get('location'), inst._links.self.href);
      assert.ok(created.headers.get('etag'));
      assert.equal(inst.instantiationState, 'NOT_INSTANTIATED');
      assert.deepEqual(Object.keys(inst._links).sort(), ['instantiate', 'self']);
      assert.deepEqual(inst.metadata, { tier: 'gold' });
      assert.equal((inst as unknown as { vnfProvider: string }).vnfProvider, 'Company');
      assert.equal(await usage(), 'IN_USE');

      // Instantiate at the default level (instantiation_level_1: VDU1 ×1, VDU2 ×1).
      const instantiateRes = await http(base, 'POST', `${V2}/vnf_instances/${inst.id}/instantiate`, {
        headers: H,
        body: INSTANTIATE,
      });
      assert.equal(instantiateRes.status, 202);
      assert.equal(instantiateRes.text, '');
      const location = instantiateRes.headers.get('location') ?? '';
      assert.match(location, new RegExp(`^${base}/vnflcm/v2/vnf_lcm_op_occs/[0-9a-f-]{36}$`));
      const instantiated = await waitOpOcc(base, location.slice(location.lastIndexOf('/') + 1));
      assert.equal(instantiated.operationState, 'COMPLETED', JSON.stringify(instantiated.error));
      assert.equal(instantiated.operation, 'INSTANTIATE');
      assert.ok(instantiated.grantId);
      assert.equal(instantiated.isCancelPending, false);
      assert.deepEqual(changes(instantiated, 'affectedVnfcs'), ['ADDED', 'ADDED']);
      assert.deepEqual(changes(instantiated, 'affectedVirtualLinks'), ['ADDED', 'ADDED', 'ADDED']);
      assert.deepEqual(changes(instantiated, 'affectedVirtualStorages'), ['ADDED', 'ADDED']);
      assert.deepEqual(Object.keys(instantiated._links).sort(), ['self', 'vnfInstance']);
      let now = await getInstance(base, inst.id);
      assert.equal(now.instantiationState, 'INSTANTIATED');
      assert.deepEqual(counts(now), { VDU1: 1, VDU2: 1 });
      assert.equal(level(now), 0);
      assert.deepEqual(now.instantiatedVnfInfo?.maxScaleLevels, [{ aspectId: 'VDU1_scale', scaleLevel: 2 }]);
      assert.equal(now.instantiatedVnfInfo?.vnfState, 'STARTED');
      assert.equal(now.instantiatedVnfInfo?.vnfcInfo?.length, 2);
      assert.equal(now.vimConnectionInfo?.default?.vimType, 'BOSUN.SIM.V1');
      assert.equal(now.vimConnectionInfo?.default?.accessInfo, undefined);
      assert.ok(now._links.terminate && now._links.scale && now._links.heal && !now._links.instantiate);
      // The affinity rule (zone scope, VDU1 with VDU2) put both VNFCs in one zone.
      const zones = new Set(now.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.zoneId));
      assert.equal(zones.size, 1);
      // Instantiating twice is a conflict.
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V2}/vnf_instances/${inst.id}/instantiate`, {
            headers: H,
            body: INSTANTIATE,
          }),
          409,
        ),
      );

      // Scale out by one step, beyond the maximum (400), then in: the newest VNFC goes.
      const out = await runTask(base, inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
      assert.equal(out.operationState, 'COMPLETED', JSON.stringify(out.error));
      assert.equal(out.operationParams.numberOfSteps, 1);
      assert.deepEqual(changes(out, 'affectedVnfcs'), ['ADDED']);
      const added = out.resourceChanges?.affectedVnfcs[0].id;
      now = await getInstance(base, inst.id);
      assert.deepEqual(counts(now), { VDU1: 2, VDU2: 1 });
      assert.equal(level(now), 1);
      const tooFar = await http(base, 'POST', `${V2}/vnf_instances/${inst.id}/scale`, {
        headers: H,
        body: { type: 'SCALE_OUT', aspectId: 'VDU1_scale', numberOfSteps: 2 },
      });
      assert.ok(isProblem(tooFar, 400));
      assert.match((tooFar.body as { detail: string }).detail, /from scale level 1 to 3, outside 0\.\.2/);
      const unknownAspect = await http(base, 'POST', `${V2}/vnf_instances/${inst.id}/scale`, {
        headers: H,
        body: { type: 'SCALE_OUT', aspectId: 'nope' },
      });
      assert.ok(isProblem(unknownAspect, 400));
      const scaledIn = await runTask(base, inst.id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
      assert.equal(scaledIn.operationState, 'COMPLETED', JSON.stringify(scaledIn.error));
      assert.deepEqual(
        scaledIn.resourceChanges?.affectedVnfcs.map((c) => [c.id, c.changeType]),
        [[added, 'REMOVED']],
      );
      now = await getInstance(base, inst.id);
      assert.deepEqual(counts(now), { VDU1: 1, VDU2: 1 });
      assert.equal(level(now), 0);

      // Scale to instantiation_level_2 (VDU1 ×3), then to scale level 1 by scaleInfo.
      const toLevel = await runTask(base, inst.id, 'scale_to_level', {
        instantiationLevelId: 'instantiation_level_2',
      });
      assert.equal(toLevel.operationState, 'COMPLETED', JSON.stringify(toLevel.error));
      now = await getInstance(base, inst.id);
      assert.deepEqual(counts(now), { VDU1: 3, VDU2: 1 });
      assert.equal(level(now), 2);
      const toOne = await runTask(base, inst.id, 'scale_to_level', {
        scaleInfo: [{ aspectId: 'VDU1_scale', scaleLevel: 1 }],
      });
      assert.equal(toOne.operationState, 'COMPLETED', JSON.stringify(toOne.error));
      assert.deepEqual(changes(toOne, 'affectedVnfcs'), ['REMOVED']);
      now = await getInstance(base, inst.id);
      assert.deepEqual(counts(now), { VDU1: 2, VDU2: 1 });
      assert.equal(level(now), 1);
      const both = await http(base, 'POST', `${V2}/vnf_instances/${inst.id}/scale_to_level`, {
        headers: H,
        body: {
          instantiationLevelId: 'instantiation_level_1',
          scaleInfo: [{ aspectId: 'VDU1_scale', scaleLevel: 0 }],
        },
      });
      assert.ok(isProblem(both, 400));

      // Heal one VNFC (SOL002): same VNFC, a new server.
      const target = now.instantiatedVnfInfo?.vnfcInfo?.find((v) => v.vduId === 'VDU2');
      assert.ok(target);
      const before = now.instantiatedVnfInfo?.vnfcResourceInfo?.find(
        (v) => v.id === target.vnfcResourceInfoId,
      );
      const healed = await runTask(base, inst.id, 'heal', { vnfcInstanceId: [target.id], cause: 'test' });
      assert.equal(healed.operationState, 'COMPLETED', JSON.stringify(healed.error));
      assert.deepEqual(
        healed.resourceChanges?.affectedVnfcs.map((c) => [c.id, c.changeType]),
        [[target.vnfcResourceInfoId, 'MODIFIED']],
      );
      now = await getInstance(base, inst.id);
      const after = now.instantiatedVnfInfo?.vnfcResourceInfo?.find(
        (v) => v.id === target.vnfcResourceInfoId,
      );
      assert.ok(after && before);
      assert.notEqual(after.computeResource.resourceId, before.computeResource.resourceId);
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V2}/vnf_instances/${inst.id}/heal`, {
            headers: H,
            body: { vnfcInstanceId: ['nope'] },
          }),
          400,
        ),
      );
      // Heal the whole VNF (SOL003): every VNFC.
      const healAll = await runTask(base, inst.id, 'heal', { additionalParams: { all: true } });
      assert.equal(healAll.operationState, 'COMPLETED', JSON.stringify(healAll.error));
      assert.equal(
        healAll.resourceChanges?.affectedVnfcs.filter((c) => c.changeType === 'MODIFIED').length,
        3,
      );

      // Operate: stop, stop again (409), start.
      const stop = await runTask(base, inst.id, 'operate', {
        changeStateTo: 'STOPPED',
        stopType: 'FORCEFUL',
      });
      assert.equal(stop.operationState, 'COMPLETED', JSON.stringify(stop.error));
      now = await getInstance(base, inst.id);
      assert.equal(now.instantiatedVnfInfo?.vnfState, 'STOPPED');
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V2}/vnf_instances/${inst.id}/operate`, {
            headers: H,
            body: { changeStateTo: 'STOPPED' },
          }),
          409,
        ),
      );
      const start = await runTask(base, inst.id, 'operate', { changeStateTo: 'STARTED' });
      assert.equal(start.operationState, 'COMPLETED', JSON.stringify(start.error));
      assert.equal((await getInstance(base, inst.id)).instantiatedVnfInfo?.vnfState, 'STARTED');

      // Change external connectivity: VDU1_CP1 onto an external VL.
      const extLink = {
        id: 'ext-1',
        resourceId: 'net-ext-1',
        extCps: [
          {
            cpdId: 'VDU1_CP1',
            cpConfig: {
              c1: {
                cpProtocolData: [
                  {
                    layerProtocol: 'IP_OVER_ETHERNET',
                    ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
                  },
                ],
              },
            },
          },
        ],
      };
      const ext = await runTask(base, inst.id, 'change_ext_conn', { extVirtualLinks: [extLink] });
      assert.equal(ext.operationState, 'COMPLETED', JSON.stringify(ext.error));
      now = await getInstance(base, inst.id);
      const extInfo =
        (now.instantiatedVnfInfo as { extVirtualLinkInfo?: { id: string }[] }).extVirtualLinkInfo ?? [];
      assert.deepEqual(
        extInfo.map((l) => l.id),
        ['ext-1'],
      );
      assert.deepEqual(
        ((ext as unknown as { changedExtConnectivity?: { id: string }[] }).changedExtConnectivity ?? []).map(
          (l) => l.id,
        ),
        ['ext-1'],
      );

      // Modify: a stale If-Match is 412; the PATCH runs as a MODIFY_INFO op occ (PROCESSING first).
      const shown = await http<Instance>(base, 'GET', `${V2}/vnf_instances/${inst.id}`, { headers: H });
      const etag = shown.headers.get('etag') ?? '';
      const stale = await http(base, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json', 'if-match': '"stale"' },
        body: JSON.stringify({ vnfInstanceName: 'x' }),
      });
      assert.ok(isProblem(stale, 412));
      const vnfcInfoId = now.instantiatedVnfInfo?.vnfcInfo?.[0].id;
      const patch = await http(base, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json', 'if-match': etag },
        body: JSON.stringify({
          vnfInstanceName: 'vnf-b',
          metadata: { tier: null, zone: 'eu' },
          extensions: { owner: 'ops' },
          vnfcInfoModifications: [{ id: vnfcInfoId, vnfcConfigurableProperties: { debug: true } }],
        }),
      });
      assert.equal(patch.status, 202, patch.text);
      const modifyId = (patch.headers.get('location') ?? '').split('/').pop() as string;
      const modified = await waitOpOcc(base, modifyId);
      assert.equal(modified.operation, 'MODIFY_INFO');
      assert.equal(modified.operationState, 'COMPLETED', JSON.stringify(modified.error));
      assert.equal(modified.grantId, undefined);
      assert.equal(modified.changedInfo?.vnfInstanceName, 'vnf-b');
      now = await getInstance(base, inst.id);
      assert.equal(now.vnfInstanceName, 'vnf-b');
      assert.equal(now.vnfInstanceDescription, 'first');
      assert.deepEqual(now.metadata, { zone: 'eu' });
      assert.deepEqual(now.extensions, { owner: 'ops' });
      const vnfc = now.instantiatedVnfInfo?.vnfcInfo?.find((v) => v.id === vnfcInfoId) as {
        vnfcConfigurableProperties?: unknown;
      };
      assert.deepEqual(vnfc.vnfcConfigurableProperties, { debug: true });
      assert.notEqual(
        (await http(base, 'GET', `${V2}/vnf_instances/${inst.id}`, { headers: H })).headers.get('etag'),
        etag,
      );

      // DELETE is refused while INSTANTIATED.
      assert.ok(isProblem(await http(base, 'DELETE', `${V2}/vnf_instances/${inst.id}`, { headers: H }), 409));

      // Terminate gracefully, then delete: the package is no longer used.
      const term = await runTask(base, inst.id, 'terminate', {
        terminationType: 'GRACEFUL',
        gracefulTerminationTimeout: 1,
      });
      assert.equal(term.operationState, 'COMPLETED', JSON.stringify(term.error));
      assert.equal(
        term.resourceChanges?.affectedVnfcs.every((c) => c.changeType === 'REMOVED'),
        true,
      );
      assert.equal(term.resourceChanges?.affectedVnfcs.length, 3);
      now = await getInstance(base, inst.id);
      assert.equal(now.instantiationState, 'NOT_INSTANTIATED');
      assert.equal(now.instantiatedVnfInfo, undefined);
      assert.equal(now.vimConnectionInfo, undefined);
      assert.equal(await usage(), 'IN_USE');
      const del = await http(base, 'DELETE', `${V2}/vnf_instances/${inst.id}`, { headers: H });
      assert.equal(del.status, 204);
      assert.ok(isProblem(await http(base, 'GET', `${V2}/vnf_instances/${inst.id}`, { headers: H }), 404));
      assert.equal(await usage(), 'NOT_IN_USE');
    });

    test('terminate without a timeout gets the default; the op occ records the parameters as accepted', async () => {
      const inst = await createInstance(server.url, vnfdId);
      assert.equal(
        (await runTask(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      const id = await startTask(server.url, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
      const term = await waitOpOcc(server.url, id);
      assert.deepEqual(term.operationParams, { terminationType: 'FORCEFUL' });
      assert.equal(term.operationState, 'COMPLETED');
      const inst2 = await createInstance(server.url, vnfdId);
      assert.equal(
        (
          await runTask(server.url, inst2.id, 'instantiate', {
            ...INSTANTIATE,
            instantiationLevelId: 'instantiation_level_2',
          })
        ).operationState,
        'COMPLETED',
      );
      assert.deepEqual(counts(await getInstance(server.url, inst2.id)), { VDU1: 3, VDU2: 1 });
      const graceful = await runTask(server.url, inst2.id, 'terminate', { terminationType: 'GRACEFUL' });
      assert.equal(graceful.operationParams.gracefulTerminationTimeout, 10);
      assert.equal(graceful.operationState, 'COMPLETED');
    });

    test('requests that cannot succeed are refused at once (400, 404, 409, 422)', async () => {
      const base = server.url;
      const inst = await createInstance(base, vnfdId);
      const post = (task: string, body: unknown) =>
        http(base, 'POST', `${V2}/vnf_instances/${inst.id}/${task}`, { headers: H, body: body as object });
      // Unknown flavour / level: 400 at the API (Tacker accepts and rolls back later).
      const badFlavour = await post('instantiate', { flavourId: 'nope' });
      assert.ok(isProblem(badFlavour, 400));
      assert.match(
        (badFlavour.body as { detail: string }).detail,
        /Flavour nope is not in the VNFD \(its flavours: simple\)/,
      );
      assert.ok(
        isProblem(await post('instantiate', { flavourId: 'simple', instantiationLevelId: 'nope' }), 400),
      );
      assert.ok(isProblem(await post('instantiate', { flavourId: 'simple', bogus: 1 }), 400));
      assert.ok(isProblem(await post('instantiate', {}), 400));
      // Operations that need an instantiated VNF: 409.
      for (const [task, body] of [
        ['terminate', { terminationType: 'FORCEFUL' }],
        ['scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }],
        ['scale_to_level', { instantiationLevelId: 'instantiation_level_2' }],
        ['heal', {}],
        ['operate', { changeStateTo: 'STOPPED' }],
        ['change_flavour', { newFlavourId: 'simple' }],
        [
          'change_ext_conn',
          { extVirtualLinks: [{ id: 'e', resourceId: 'n', extCps: [{ cpdId: 'VDU1_CP1' }] }] },
        ],
        ['change_vnfpkg', { vnfdId }],
      ] as const) {
        const res = await post(task, body);
        assert.ok(isProblem(res, 409), `${task}: ${res.status} ${res.text}`);
        assert.match((res.body as { detail: string }).detail, /NOT_INSTANTIATED/);
      }
      // Unknown instance, malformed id: 404.
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V2}/vnf_instances/6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11/instantiate`, {
            headers: H,
            body: INSTANTIATE,
          }),
          404,
        ),
      );
      assert.ok(isProblem(await http(base, 'GET', `${V2}/vnf_instances/not-a-uuid`, { headers: H }), 404));
      // Unknown vnfdId: 422; a DISABLED package: 422.
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V2}/vnf_instances`, { headers: H, body: { vnfdId: 'nope' } }),
          422,
        ),
      );
      // Version header is required on v2.
      assert.ok(isProblem(await http(base, 'GET', `${V2}/vnf_instances`), 400));
      // PATCH: vimConnectionInfo while NOT_INSTANTIATED is a 400, empty patch 400.
      const patch = (body: unknown) =>
        http(base, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
          headers: { ...H, 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify(body),
        });
      assert.ok(isProblem(await patch({ vimConnectionInfo: { v: { vimType: 'BOSUN.SIM.V1' } } }), 400));
      assert.ok(isProblem(await patch({}), 400));
      // Nothing above left an op occ behind.
      const occs = await http<OpOcc[]>(
        base,
        'GET',
        `${V2}/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,${inst.id})`,
        { headers: H },
      );
      assert.deepEqual(occs.body, []);
    });
  });
}

/**
 * The whole life of a VNF instance over /vnflcm/v1 (SOL002/SOL003 v2.6.1, API 1.3.0) on the
 * simulated VIM, from a real Tacker sample onboarded through the package API, on SQLite and
 * PostgreSQL: create (package IN_USE), instantiate, scale out and in, heal (SOL002 vnfcInstanceId
 * and SOL003 whole VNF), operate, change external connectivity (v2.6.1 cpConfig array), modify (PATCH with
 * If-Match, vimConnectionInfo array and vimConnectionInfoDeleteIds), terminate, delete (package
 * NOT_IN_USE) — every instance and op occ checked against the ETSI v2.6.1 schemas. Then the 409
 * rules and the other refusals, and the separation of v1 and v2 instances.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { V2_HEADERS as PKG_HEADERS, V2 as PKG_V2 } from '../vnfpkgm/support.ts';
import { createInstance, H, INSTANTIATE, onboardOnce, runTask, V2 } from './lcm-support.ts';
import { assertInstanceV1, assertOpOccV1 } from './v1-schemas.ts';
import {
  createInstanceV1,
  extVirtualLinkV1,
  getInstanceV1,
  H1,
  type InstanceV1,
  idOf,
  type OpOccV1,
  runTaskV1,
  startTaskV1,
  V1,
  waitOpOccV1,
} from './v1-support.ts';

const counts = (inst: InstanceV1) => {
  const out: Record<string, number> = {};
  for (const v of inst.instantiatedVnfInfo?.vnfcResourceInfo ?? []) out[v.vduId] = (out[v.vduId] ?? 0) + 1;
  return out;
};
const level = (inst: InstanceV1) =>
  inst.instantiatedVnfInfo?.scaleStatus?.find((s) => s.aspectId === 'VDU1_scale')?.scaleLevel;
const changes = (op: OpOccV1, kind: 'affectedVnfcs' | 'affectedVirtualLinks' | 'affectedVirtualStorages') =>
  (op.resourceChanges?.[kind] ?? []).map((c) => c.changeType).sort();

for (const dialect of DIALECTS) {
  describe(`VNF instance lifecycle on /vnflcm/v1 (${dialect})`, () => {
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
    /** Shows the instance, checking it against the v2.6.1 schemas. */
    const show = async (id: string) => {
      const inst = await getInstanceV1(server.url, id);
      assertInstanceV1(inst);
      return inst;
    };
    /** Resolves once every injected fault has been taken by a simulated VIM call. */
    const faultTaken = async () => {
      for (let i = 0; i < 500; i++) {
        const pending = await http<unknown[]>(server.url, 'GET', '/bosun/v1/sim/faults');
        if (pending.body.length === 0) return;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the injected fault was never taken');
    };
    /** Runs a task to its end, checking the op occ against the v2.6.1 schemas. */
    const run = async (id: string, task: string, body: Record<string, unknown>) => {
      const op = await runTaskV1(server.url, id, task, body);
      assertOpOccV1(op, `${task} op occ`);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      return op;
    };

    test('create → instantiate → scale → heal → operate → change ext conn → modify → terminate → delete', async () => {
      const base = server.url;
      // Create: NOT_INSTANTIATED, package facts copied, package IN_USE.
      const created = await http<InstanceV1>(base, 'POST', `${V1}/vnf_instances`, {
        headers: H1,
        body: {
          vnfdId,
          vnfInstanceName: 'vnf-a',
          vnfInstanceDescription: 'first',
          metadata: { tier: 'gold' },
        },
      });
      assert.equal(created.status, 201, created.text);
      const inst = created.body;
      assertInstanceV1(inst, 'created');
      assert.equal(created.headers.get('location'), inst._links.self.href);
      assert.match(inst._links.self.href, new RegExp(`^${base}/vnflcm/v1/vnf_instances/${inst.id}$`));
      assert.equal(created.headers.get('version'), '1.3.0');
      assert.ok(created.headers.get('etag'));
      assert.equal(inst.instantiationState, 'NOT_INSTANTIATED');
      assert.equal(inst.vnfPkgId, pkgId);
      assert.deepEqual(Object.keys(inst._links).sort(), ['instantiate', 'self']);
      assert.deepEqual(inst.metadata, { tier: 'gold' });
      assert.equal(await usage(), 'IN_USE');

      // Instantiate (the Version header is optional on v1, as the Tacker client leaves it out of
      // some calls): VDU1 ×1, VDU2 ×1 at the default level.
      const instantiateRes = await http(base, 'POST', `${V1}/vnf_instances/${inst.id}/instantiate`, {
        body: INSTANTIATE,
      });
      assert.equal(instantiateRes.status, 202, instantiateRes.text);
      assert.equal(instantiateRes.text, '');
      const location = instantiateRes.headers.get('location') ?? '';
      assert.match(location, new RegExp(`^${base}/vnflcm/v1/vnf_lcm_op_occs/[0-9a-f-]{36}$`));
      const instantiated = await waitOpOccV1(base, idOf(location));
      assertOpOccV1(instantiated, 'instantiate op occ');
      assert.equal(instantiated.operationState, 'COMPLETED', JSON.stringify(instantiated.error));
      assert.equal(instantiated.operation, 'INSTANTIATE');
      assert.ok(instantiated.grantId);
      assert.deepEqual(instantiated.operationParams, INSTANTIATE);
      assert.deepEqual(changes(instantiated, 'affectedVnfcs'), ['ADDED', 'ADDED']);
      assert.deepEqual(changes(instantiated, 'affectedVirtualLinks'), ['ADDED', 'ADDED', 'ADDED']);
      assert.deepEqual(changes(instantiated, 'affectedVirtualStorages'), ['ADDED', 'ADDED']);
      assert.equal('affectedExtLinkPorts' in (instantiated.resourceChanges ?? {}), false);
      for (const c of instantiated.resourceChanges?.affectedVnfcs ?? []) {
        assert.equal('zoneId' in c, false);
        assert.equal(typeof (c.metadata as { zone?: unknown }).zone, 'string');
      }
      assert.match(instantiated._links.vnfInstance.href, new RegExp(`/vnflcm/v1/vnf_instances/${inst.id}$`));
      assert.deepEqual(Object.keys(instantiated._links).sort(), ['self', 'vnfInstance']);
      let now = await show(inst.id);
      assert.equal(now.instantiationState, 'INSTANTIATED');
      assert.deepEqual(counts(now), { VDU1: 1, VDU2: 1 });
      assert.equal(level(now), 0);
      // v2.6.1 shapes: vimConnectionInfo is an array, no vnfcInfo or maxScaleLevels, the zone in
      // the VNFC's metadata.
      assert.deepEqual(
        now.vimConnectionInfo?.map((v) => [v.id, v.vimType]),
        [['default', 'BOSUN.SIM.V1']],
      );
      const info = now.instantiatedVnfInfo as Record<string, unknown>;
      for (const v3only of ['vnfcInfo', 'maxScaleLevels', 'metadata']) assert.equal(v3only in info, false);
      for (const v of now.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
        assert.equal('zoneId' in v, false);
        assert.match(String(v.metadata?.zone), /^zone-/);
      }
      assert.equal(now.instantiatedVnfInfo?.vnfVirtualLinkResourceInfo?.length, 3);
      assert.ok(now._links.terminate && now._links.scale && now._links.heal && !now._links.instantiate);
      assert.equal(now._links.changeCurrentVnfPkg, undefined);

      // Scale out by one step, beyond the maximum (400), then in: the newest VNFC goes.
      const out = await run(inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
      assert.equal(out.operationParams.numberOfSteps, 1);
      assert.deepEqual(changes(out, 'affectedVnfcs'), ['ADDED']);
      const added = out.resourceChanges?.affectedVnfcs[0].id;
      now = await show(inst.id);
      assert.deepEqual(counts(now), { VDU1: 2, VDU2: 1 });
      assert.equal(level(now), 1);
      const tooFar = await http(base, 'POST', `${V1}/vnf_instances/${inst.id}/scale`, {
        headers: H1,
        body: { type: 'SCALE_OUT', aspectId: 'VDU1_scale', numberOfSteps: 2 },
      });
      assert.ok(isProblem(tooFar, 400), tooFar.text);
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V1}/vnf_instances/${inst.id}/scale`, {
            headers: H1,
            body: { type: 'SCALE_OUT', aspectId: 'nope' },
          }),
          400,
        ),
      );
      const scaledIn = await run(inst.id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
      assert.deepEqual(
        scaledIn.resourceChanges?.affectedVnfcs.map((c) => [c.id, c.changeType]),
        [[added, 'REMOVED']],
      );
      now = await show(inst.id);
      assert.deepEqual(counts(now), { VDU1: 1, VDU2: 1 });
      assert.equal(level(now), 0);
      // Scale to a level.
      await run(inst.id, 'scale_to_level', { scaleInfo: [{ aspectId: 'VDU1_scale', scaleLevel: 1 }] });
      now = await show(inst.id);
      assert.deepEqual(counts(now), { VDU1: 2, VDU2: 1 });

      // Heal one VNFC (SOL002 v2.6.1: vnfcInstanceId names vnfcResourceInfo): same VNFC, new server.
      const target = now.instantiatedVnfInfo?.vnfcResourceInfo?.find((v) => v.vduId === 'VDU2');
      assert.ok(target);
      const healed = await run(inst.id, 'heal', { vnfcInstanceId: [target.id], cause: 'test' });
      assert.deepEqual(healed.operationParams, { vnfcInstanceId: [target.id], cause: 'test' });
      assert.deepEqual(
        healed.resourceChanges?.affectedVnfcs.map((c) => [c.id, c.changeType]),
        [[target.id, 'MODIFIED']],
      );
      now = await show(inst.id);
      const after = now.instantiatedVnfInfo?.vnfcResourceInfo?.find((v) => v.id === target.id);
      assert.ok(after);
      assert.notEqual(after.computeResource.resourceId, target.computeResource.resourceId);
      const unknownVnfc = await http(base, 'POST', `${V1}/vnf_instances/${inst.id}/heal`, {
        headers: H1,
        body: { vnfcInstanceId: ['nope'] },
      });
      assert.ok(isProblem(unknownVnfc, 400));
      assert.match((unknownVnfc.body as { detail: string }).detail, /nope/);
      // Heal the whole VNF (SOL003 v2.6.1: cause and additionalParams).
      const healAll = await run(inst.id, 'heal', { cause: 'whole', additionalParams: { all: true } });
      assert.equal(
        healAll.resourceChanges?.affectedVnfcs.filter((c) => c.changeType === 'MODIFIED').length,
        3,
      );

      // Operate (SOL002: one VNFC by its vnfcResourceInfo id), then the whole VNF.
      const one = now.instantiatedVnfInfo?.vnfcResourceInfo?.[0];
      assert.ok(one);
      await run(inst.id, 'operate', {
        vnfcInstanceId: [one.id],
        changeStateTo: 'STOPPED',
        stopType: 'FORCEFUL',
      });
      assert.equal((await show(inst.id)).instantiatedVnfInfo?.vnfState, 'STARTED', 'others still run');
      await run(inst.id, 'operate', { changeStateTo: 'STOPPED', stopType: 'FORCEFUL' });
      assert.equal((await show(inst.id)).instantiatedVnfInfo?.vnfState, 'STOPPED');
      await run(inst.id, 'operate', { changeStateTo: 'STARTED' });
      assert.equal((await show(inst.id)).instantiatedVnfInfo?.vnfState, 'STARTED');

      // Change external connectivity with a v2.6.1 request (cpConfig is an array).
      const extLink = extVirtualLinkV1('ext-1', 'net-ext-1');
      const ext = await run(inst.id, 'change_ext_conn', { extVirtualLinks: [extLink] });
      assert.deepEqual(ext.operationParams, { extVirtualLinks: [extLink] }, 'shown as the client sent it');
      assert.deepEqual(
        ext.changedExtConnectivity?.map((l) => [
          l.id,
          (l.resourceHandle as { resourceId: string }).resourceId,
        ]),
        [['ext-1', 'net-ext-1']],
      );
      now = await show(inst.id);
      assert.deepEqual(
        now.instantiatedVnfInfo?.extVirtualLinkInfo?.map((l) => l.id),
        ['ext-1'],
      );
      const extCps = now.instantiatedVnfInfo?.extCpInfo ?? [];
      assert.equal(extCps.length, 2, 'both VDU1 VNFCs have their VDU1_CP1 on the external VL');
      for (const cp of extCps) {
        assert.equal(cp.cpdId, 'VDU1_CP1');
        assert.equal('cpConfigId' in cp, false);
        assert.ok(cp.cpProtocolInfo.length > 0);
      }
      // Duplicate ids in a v2.6.1 array are refused at once.
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V1}/vnf_instances/${inst.id}/change_ext_conn`, {
            headers: H1,
            body: {
              extVirtualLinks: [extLink],
              vimConnectionInfo: [
                { id: 'v', vimType: 'BOSUN.SIM.V1' },
                { id: 'v', vimType: 'BOSUN.SIM.V1' },
              ],
            },
          }),
          400,
        ),
      );

      // Modify: a stale If-Match is 412; the PATCH runs as a MODIFY_INFO op occ.
      const shown = await http<InstanceV1>(base, 'GET', `${V1}/vnf_instances/${inst.id}`, { headers: H1 });
      const etag = shown.headers.get('etag') ?? '';
      const stale = await http(base, 'PATCH', `${V1}/vnf_instances/${inst.id}`, {
        headers: { ...H1, 'content-type': 'application/merge-patch+json', 'if-match': '"stale"' },
        body: JSON.stringify({ vnfInstanceName: 'x' }),
      });
      assert.ok(isProblem(stale, 412));
      const secret = 'never-shown-v1';
      const patch = await http(base, 'PATCH', `${V1}/vnf_instances/${inst.id}`, {
        // The Tacker client sends application/json (SOL says merge-patch+json): both are accepted.
        headers: { ...H1, 'content-type': 'application/json', 'if-match': etag },
        body: JSON.stringify({
          vnfInstanceName: 'vnf-b',
          metadata: { tier: null, zone: 'eu' },
          extensions: { owner: 'ops' },
          vimConnectionInfo: [
            {
              id: 'spare',
              vimType: 'BOSUN.SIM.V1',
              interfaceInfo: { endpoint: 'http://sim.invalid' },
              accessInfo: { password: secret },
            },
          ],
        }),
      });
      assert.equal(patch.status, 202, patch.text);
      const modified = await waitOpOccV1(base, idOf(patch.headers.get('location')));
      assertOpOccV1(modified, 'modify op occ');
      assert.equal(modified.operation, 'MODIFY_INFO');
      assert.equal(modified.operationState, 'COMPLETED', JSON.stringify(modified.error));
      assert.equal(modified.grantId, undefined);
      assert.equal(modified.changedInfo?.vnfInstanceName, 'vnf-b');
      assert.deepEqual(modified.changedInfo?.vimConnectionInfo, [
        { id: 'spare', vimType: 'BOSUN.SIM.V1', interfaceInfo: { endpoint: 'http://sim.invalid' } },
      ]);
      assert.equal(JSON.stringify(modified).includes(secret), false);
      now = await show(inst.id);
      assert.equal(now.vnfInstanceName, 'vnf-b');
      assert.equal(now.vnfInstanceDescription, 'first');
      assert.deepEqual(now.metadata, { zone: 'eu' });
      assert.deepEqual(now.extensions, { owner: 'ops' });
      assert.deepEqual(
        now.vimConnectionInfo?.map((v) => v.id),
        ['default', 'spare'],
      );
      assert.equal(JSON.stringify(now).includes(secret), false);
      assert.notEqual(
        (await http(base, 'GET', `${V1}/vnf_instances/${inst.id}`, { headers: H1 })).headers.get('etag'),
        etag,
      );
      // vimConnectionInfoDeleteIds removes the entry again.
      const removed = await http(base, 'PATCH', `${V1}/vnf_instances/${inst.id}`, {
        headers: H1,
        body: { vimConnectionInfoDeleteIds: ['spare'] },
      });
      assert.equal(removed.status, 202, removed.text);
      const removeOp = await waitOpOccV1(base, idOf(removed.headers.get('location')));
      assertOpOccV1(removeOp, 'modify op occ (delete ids)');
      assert.deepEqual(removeOp.operationParams, { vimConnectionInfoDeleteIds: ['spare'] });
      assert.deepEqual(removeOp.changedInfo, { vimConnectionInfoDeleteIds: ['spare'] });
      assert.deepEqual(
        (await show(inst.id)).vimConnectionInfo?.map((v) => v.id),
        ['default'],
      );

      // DELETE is refused while INSTANTIATED.
      assert.ok(
        isProblem(await http(base, 'DELETE', `${V1}/vnf_instances/${inst.id}`, { headers: H1 }), 409),
      );

      // Terminate gracefully, then delete: the package is no longer used.
      const term = await run(inst.id, 'terminate', {
        terminationType: 'GRACEFUL',
        gracefulTerminationTimeout: 1,
      });
      assert.equal(
        term.resourceChanges?.affectedVnfcs.every((c) => c.changeType === 'REMOVED'),
        true,
      );
      assert.equal(term.resourceChanges?.affectedVnfcs.length, 3);
      now = await show(inst.id);
      assert.equal(now.instantiationState, 'NOT_INSTANTIATED');
      assert.equal(now.instantiatedVnfInfo, undefined);
      assert.equal(now.vimConnectionInfo, undefined);
      assert.equal(await usage(), 'IN_USE');
      const del = await http(base, 'DELETE', `${V1}/vnf_instances/${inst.id}`, { headers: H1 });
      assert.equal(del.status, 204);
      assert.ok(isProblem(await http(base, 'GET', `${V1}/vnf_instances/${inst.id}`, { headers: H1 }), 404));
      assert.equal(await usage(), 'NOT_IN_USE');

      // Every op occ of the instance is listed (bare array), newest state each, schema-valid.
      const occs = await http<OpOccV1[]>(
        base,
        'GET',
        `${V1}/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,${inst.id})&all_fields`,
        { headers: H1 },
      );
      assert.equal(occs.status, 200);
      assert.ok(Array.isArray(occs.body));
      assert.deepEqual(occs.body.map((o) => o.operation).sort(), [
        'CHANGE_EXT_CONN',
        'HEAL',
        'HEAL',
        'INSTANTIATE',
        'MODIFY_INFO',
        'MODIFY_INFO',
        'OPERATE',
        'OPERATE',
        'OPERATE',
        'SCALE',
        'SCALE',
        'SCALE_TO_LEVEL',
        'TERMINATE',
      ]);
      for (const o of occs.body) {
        assertOpOccV1(o, 'listed op occ');
        assert.equal(o.operationState, 'COMPLETED');
      }
      const shownOcc = await http<OpOccV1>(base, 'GET', `${V1}/vnf_lcm_op_occs/${instantiated.id}`, {
        headers: H1,
      });
      assert.equal(shownOcc.status, 200);
      assert.ok(shownOcc.headers.get('etag'));
      assert.equal(shownOcc.body.id, instantiated.id);
      // The default list leaves the complex attributes out; a filter on operation works.
      const brief = await http<Record<string, unknown>[]>(
        base,
        'GET',
        `${V1}/vnf_lcm_op_occs?filter=(eq,operation,INSTANTIATE)`,
        { headers: H1 },
      );
      assert.deepEqual(
        brief.body.map((o) => o.id),
        [instantiated.id],
      );
      assert.equal('operationParams' in brief.body[0], false);
      assert.equal('resourceChanges' in brief.body[0], false);
      // CHANGE_VNFPKG is not a v1 operation.
      assert.ok(
        isProblem(
          await http(base, 'GET', `${V1}/vnf_lcm_op_occs?filter=(eq,operation,CHANGE_VNFPKG)`, {
            headers: H1,
          }),
          400,
        ),
      );
    });

    test('requests that cannot succeed are refused at once (400, 404, 409, 422)', async () => {
      const base = server.url;
      const inst = await createInstanceV1(base, vnfdId);
      const post = (task: string, body: unknown, id = inst.id) =>
        http(base, 'POST', `${V1}/vnf_instances/${id}/${task}`, { headers: H1, body: body as object });
      // Unknown vnfdId: 404 as Tacker's v1 API; malformed body: 400.
      const unknown = await http(base, 'POST', `${V1}/vnf_instances`, {
        headers: H1,
        body: { vnfdId: 'nope' },
      });
      assert.ok(isProblem(unknown, 404));
      assert.match((unknown.body as { detail: string }).detail, /vnfdId nope/);
      assert.ok(isProblem(await http(base, 'POST', `${V1}/vnf_instances`, { headers: H1, body: {} }), 400));
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V1}/vnf_instances`, { headers: H1, body: { vnfdId, bogus: 1 } }),
          400,
        ),
      );
      // Unknown flavour / level: 400 at the API.
      assert.ok(isProblem(await post('instantiate', { flavourId: 'nope' }), 400));
      assert.ok(
        isProblem(await post('instantiate', { flavourId: 'simple', instantiationLevelId: 'nope' }), 400),
      );
      // A v3.3.1 shape on v1 is a 400: vimConnectionInfo must be an array, cpConfig too.
      assert.ok(
        isProblem(
          await post('instantiate', {
            flavourId: 'simple',
            vimConnectionInfo: { a: { vimType: 'BOSUN.SIM.V1' } },
          }),
          400,
        ),
      );
      assert.ok(
        isProblem(
          await post('instantiate', {
            flavourId: 'simple',
            extVirtualLinks: [
              { id: 'e', resourceId: 'n', extCps: [{ cpdId: 'VDU1_CP1', cpConfig: { c: {} } }] },
            ],
          }),
          400,
        ),
      );
      // Operations that need an instantiated VNF: 409.
      for (const [task, body] of [
        ['terminate', { terminationType: 'FORCEFUL' }],
        ['scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }],
        ['scale_to_level', { instantiationLevelId: 'instantiation_level_2' }],
        ['heal', { cause: 'c' }],
        ['operate', { changeStateTo: 'STOPPED' }],
        ['change_flavour', { newFlavourId: 'simple' }],
        ['change_ext_conn', { extVirtualLinks: [extVirtualLinkV1('e', 'n')] }],
      ] as const) {
        const res = await post(task, body);
        assert.ok(isProblem(res, 409), `${task}: ${res.status} ${res.text}`);
        assert.match((res.body as { detail: string }).detail, /NOT_INSTANTIATED/);
      }
      // v2.6.1 has no change_vnfpkg.
      assert.ok(isProblem(await post('change_vnfpkg', { vnfdId }), 404));
      // Unknown instance, malformed id: 404.
      assert.ok(
        isProblem(await post('instantiate', INSTANTIATE, '6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11'), 404),
      );
      assert.ok(isProblem(await http(base, 'GET', `${V1}/vnf_instances/not-a-uuid`, { headers: H1 }), 404));
      assert.ok(
        isProblem(
          await http(base, 'GET', `${V1}/vnf_lcm_op_occs/6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11`, {
            headers: H1,
          }),
          404,
        ),
      );
      // Version: optional on v1; a malformed one is 400, a v2 one 406.
      assert.equal((await http(base, 'GET', `${V1}/vnf_instances`)).status, 200);
      assert.ok(
        isProblem(await http(base, 'GET', `${V1}/vnf_instances`, { headers: { Version: 'x' } }), 400),
      );
      assert.ok(
        isProblem(await http(base, 'GET', `${V1}/vnf_instances`, { headers: { Version: '2.0.0' } }), 406),
      );
      // PATCH: vimConnectionInfo (or deleting one) while NOT_INSTANTIATED, an empty patch, a
      // contradictory vnfPkgId: 400; an unknown vnfPkgId: 422.
      const patch = (body: unknown) =>
        http(base, 'PATCH', `${V1}/vnf_instances/${inst.id}`, { headers: H1, body: body as object });
      assert.ok(isProblem(await patch({ vimConnectionInfo: [{ id: 'v', vimType: 'BOSUN.SIM.V1' }] }), 400));
      assert.ok(isProblem(await patch({ vimConnectionInfoDeleteIds: ['v'] }), 400));
      assert.ok(isProblem(await patch({}), 400));
      assert.ok(isProblem(await patch({ vnfPkgId: pkgId, vnfdId: 'other' }), 400));
      assert.ok(isProblem(await patch({ vnfPkgId: '6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11' }), 422));
      // vnfPkgId naming the instance's own package is a plain rename-free modify.
      const same = await patch({ vnfPkgId: pkgId });
      assert.equal(same.status, 202, same.text);
      assert.equal((await waitOpOccV1(base, idOf(same.headers.get('location')))).operationState, 'COMPLETED');

      // Busy: while one operation runs, every other on the instance is 409 at once; DELETE too.
      await http(base, 'POST', '/bosun/v1/sim/faults', {
        body: { kind: 'server.create', action: 'hang', timeoutMs: 30000 },
      });
      const running = await startTaskV1(base, inst.id, 'instantiate', INSTANTIATE);
      await waitOpOccV1(base, running, ['PROCESSING']);
      await faultTaken();
      const processing = await waitOpOccV1(base, running, ['PROCESSING']);
      assertOpOccV1(processing, 'PROCESSING op occ');
      assert.deepEqual(Object.keys(processing._links).sort(), ['cancel', 'self', 'vnfInstance']);
      const second = await post('instantiate', INSTANTIATE);
      assert.ok(isProblem(second, 409));
      assert.match((second.body as { detail: string }).detail, /busy/);
      assert.ok(isProblem(await patch({ vnfInstanceName: 'x' }), 409));
      assert.ok(
        isProblem(await http(base, 'DELETE', `${V1}/vnf_instances/${inst.id}`, { headers: H1 }), 409),
      );
      // Retry, rollback and fail need FAILED_TEMP: 409 while PROCESSING.
      for (const t of ['retry', 'rollback', 'fail']) {
        assert.ok(
          isProblem(await http(base, 'POST', `${V1}/vnf_lcm_op_occs/${running}/${t}`, { headers: H1 }), 409),
          t,
        );
      }
      // Cancel (the Tacker client sends it without a Version header) ends the hung step.
      const cancel = await http(base, 'POST', `${V1}/vnf_lcm_op_occs/${running}/cancel`, {
        body: { cancelMode: 'FORCEFUL' },
      });
      assert.equal(cancel.status, 202, cancel.text);
      const cancelled = await waitOpOccV1(base, running);
      assertOpOccV1(cancelled, 'cancelled op occ');
      assert.equal(cancelled.operationState, 'FAILED_TEMP');
      assert.ok(
        isProblem(
          await http(base, 'POST', `${V1}/vnf_lcm_op_occs/${running}/cancel`, {
            headers: H1,
            body: { cancelMode: 'GRACEFUL' },
          }),
          409,
        ),
      );
      // FAILED_TEMP holds the instance too; roll it back and the instance is free again.
      assert.ok(isProblem(await post('instantiate', INSTANTIATE), 409));
      const rb = await http(base, 'POST', `${V1}/vnf_lcm_op_occs/${running}/rollback`, { headers: H1 });
      assert.equal(rb.status, 202, rb.text);
      assert.equal((await waitOpOccV1(base, running)).operationState, 'ROLLED_BACK');
      assert.equal((await runTaskV1(base, inst.id, 'instantiate', INSTANTIATE)).operationState, 'COMPLETED');
    });

    test('instantiate with a v2.6.1 vimConnectionInfo array: credentials are sealed, never shown', async () => {
      const base = server.url;
      const secret = 'v1-secret-value';
      const inst = await createInstanceV1(base, vnfdId, { vnfInstanceName: 'with-vim' });
      const vim = {
        id: 'vim1',
        vimType: 'BOSUN.SIM.V1',
        interfaceInfo: { endpoint: 'http://sim.invalid', password: secret },
        accessInfo: { username: 'u', password: secret },
      };
      const op = await run(inst.id, 'instantiate', { ...INSTANTIATE, vimConnectionInfo: [vim] });
      assert.deepEqual(op.operationParams.vimConnectionInfo, [
        { id: 'vim1', vimType: 'BOSUN.SIM.V1', interfaceInfo: { endpoint: 'http://sim.invalid' } },
      ]);
      assert.equal(JSON.stringify(op).includes(secret), false);
      const now = await show(inst.id);
      assert.deepEqual(now.vimConnectionInfo, [
        { id: 'vim1', vimType: 'BOSUN.SIM.V1', interfaceInfo: { endpoint: 'http://sim.invalid' } },
      ]);
      for (const v of now.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
        assert.equal(v.computeResource.vimConnectionId, 'vim1');
      }
      const listed = await http<unknown[]>(base, 'GET', `${V1}/vnf_instances?all_fields`, { headers: H1 });
      assert.equal(listed.status, 200);
      assert.ok(listed.body.length > 0);
      for (const item of listed.body) assertInstanceV1(item, 'listed instance');
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
        `${V1}/vnf_instances?filter=(eq,vnfPkgId,${pkgId})`,
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
      await run(inst.id, 'terminate', { terminationType: 'FORCEFUL' });
    });

    test('v1 and v2 instances and op occs are separate', async () => {
      const base = server.url;
      const v1 = await createInstanceV1(base, vnfdId, { vnfInstanceName: 'only-v1' });
      const v2 = await createInstance(base, vnfdId, { vnfInstanceName: 'only-v2' });
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

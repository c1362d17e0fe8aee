/**
 * The whole life of a VNF instance on the simulated VIM, from a real Tacker sample onboarded
 * through the package API, on both LCM majors and both databases: create (package IN_USE),
 * instantiate at the default level, scale out and in, scale to a level and to scale levels, heal
 * (SOL002 VNFCs and SOL003 whole VNF), operate, change external connectivity, modify (PATCH with
 * If-Match), terminate, delete (package NOT_IN_USE), then the op occs listed — with the resulting
 * instance and op occ checked at each step. Each major's requests and representations differ
 * (SOL003 v2.6.1 on /vnflcm/v1: vimConnectionInfo and cpConfig arrays, VNFCs named by their
 * vnfcResourceInfo, no vnfcInfo, the zone in VNFC metadata; every v1 representation is checked
 * with the ETSI schemas): those differences are per-major expectations.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { idOf } from './lcm-client.ts';
import { lcmServer, packageUsage } from './lcm-server.ts';
import { INSTANTIATE } from './lcm-support.ts';
import { EXPECTED, type LifeInstance, type LifeOpOcc } from './lifecycle-expectations.ts';
import { MAJORS } from './majors.ts';

const counts = (inst: LifeInstance) => {
  const out: Record<string, number> = {};
  for (const v of inst.instantiatedVnfInfo?.vnfcResourceInfo ?? []) out[v.vduId] = (out[v.vduId] ?? 0) + 1;
  return out;
};
const level = (inst: LifeInstance) =>
  inst.instantiatedVnfInfo?.scaleStatus?.find((s) => s.aspectId === 'VDU1_scale')?.scaleLevel;
const changes = (op: LifeOpOcc, kind: 'affectedVnfcs' | 'affectedVirtualLinks' | 'affectedVirtualStorages') =>
  (op.resourceChanges?.[kind] ?? []).map((c) => c.changeType).sort();

for (const dialect of DIALECTS) {
  for (const m of MAJORS) {
    const expected = EXPECTED[m.major];
    describe(`VNF instance lifecycle on ${m.prefix} (${dialect})`, () => {
      const server = lcmServer(dialect);
      const usage = () => packageUsage(server.url, server.pkgId);
      const c = {
        ...m.client,
        getInstance: m.client.getInstance as unknown as (base: string, id: string) => Promise<LifeInstance>,
        waitOpOcc: m.client.waitOpOcc as unknown as (base: string, id: string) => Promise<LifeOpOcc>,
      };
      const path = (p: string) => `${m.prefix}/${p}`;
      const show = (id: string) => c.getInstance(server.url, id);
      /** Runs a task to its end, which must be COMPLETED. */
      const run = async (id: string, task: string, body: Record<string, unknown>) => {
        const op = (await m.client.runTask(server.url, id, task, body)) as unknown as LifeOpOcc;
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        return op;
      };

      test('create → instantiate → scale → heal → operate → change ext conn → modify → terminate → delete', async () => {
        const base = server.url;
        // Create: NOT_INSTANTIATED, package facts copied, package IN_USE.
        const created = await http<LifeInstance>(base, 'POST', path('vnf_instances'), {
          headers: m.headers,
          body: {
            vnfdId: server.vnfdId,
            vnfInstanceName: 'vnf-a',
            vnfInstanceDescription: 'first',
            metadata: { tier: 'gold' },
          },
        });
        assert.equal(created.status, 201, created.text);
        const inst = created.body;
        assert.equal(created.headers.get('location'), inst._links.self.href);
        assert.match(inst._links.self.href, new RegExp(`^${base}${m.prefix}/vnf_instances/${inst.id}$`));
        assert.equal(created.headers.get('version'), expected.version);
        assert.ok(created.headers.get('etag'));
        assert.equal(inst.instantiationState, 'NOT_INSTANTIATED');
        expected.created(inst, server.pkgId);
        assert.deepEqual(Object.keys(inst._links).sort(), ['instantiate', 'self']);
        assert.deepEqual(inst.metadata, { tier: 'gold' });
        assert.equal(inst.vnfProvider, 'Company');
        assert.equal(await usage(), 'IN_USE');

        // Instantiate at the default level (instantiation_level_1: VDU1 ×1, VDU2 ×1).
        const instantiateRes = await http(base, 'POST', path(`vnf_instances/${inst.id}/instantiate`), {
          headers: expected.tackerHeaders,
          body: INSTANTIATE,
        });
        assert.equal(instantiateRes.status, 202, instantiateRes.text);
        assert.equal(instantiateRes.text, '');
        const location = instantiateRes.headers.get('location') ?? '';
        assert.match(location, new RegExp(`^${base}${m.prefix}/vnf_lcm_op_occs/[0-9a-f-]{36}$`));
        const instantiated = await c.waitOpOcc(base, idOf(location));
        assert.equal(instantiated.operationState, 'COMPLETED', JSON.stringify(instantiated.error));
        assert.equal(instantiated.operation, 'INSTANTIATE');
        assert.ok(instantiated.grantId);
        assert.equal(instantiated.isCancelPending, false);
        assert.deepEqual(instantiated.operationParams, INSTANTIATE);
        assert.deepEqual(changes(instantiated, 'affectedVnfcs'), ['ADDED', 'ADDED']);
        assert.deepEqual(changes(instantiated, 'affectedVirtualLinks'), ['ADDED', 'ADDED', 'ADDED']);
        assert.deepEqual(changes(instantiated, 'affectedVirtualStorages'), ['ADDED', 'ADDED']);
        assert.match(
          instantiated._links.vnfInstance.href,
          new RegExp(`${m.prefix}/vnf_instances/${inst.id}$`),
        );
        assert.deepEqual(Object.keys(instantiated._links).sort(), ['self', 'vnfInstance']);
        let now = await show(inst.id);
        assert.equal(now.instantiationState, 'INSTANTIATED');
        assert.deepEqual(counts(now), { VDU1: 1, VDU2: 1 });
        assert.equal(level(now), 0);
        assert.equal(now.instantiatedVnfInfo?.vnfState, 'STARTED');
        assert.equal(now.instantiatedVnfInfo?.vnfVirtualLinkResourceInfo?.length, 3);
        assert.ok(now._links.terminate && now._links.scale && now._links.heal && !now._links.instantiate);
        expected.instantiated(now, instantiated);
        // The affinity rule (zone scope, VDU1 with VDU2) put both VNFCs in one zone.
        const zones = new Set(now.instantiatedVnfInfo?.vnfcResourceInfo?.map(expected.zoneOf));
        assert.equal(zones.size, 1);
        assert.match(String([...zones][0]), /^zone-/);
        // Instantiating twice is a conflict.
        assert.ok(
          isProblem(
            await http(base, 'POST', path(`vnf_instances/${inst.id}/instantiate`), {
              headers: m.headers,
              body: INSTANTIATE,
            }),
            409,
          ),
        );

        // Scale out by one step, beyond the maximum (400), then in: the newest VNFC goes.
        const out = await run(inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
        assert.equal(out.operationParams.numberOfSteps, 1);
        assert.deepEqual(changes(out, 'affectedVnfcs'), ['ADDED']);
        const added = out.resourceChanges?.affectedVnfcs[0].id;
        now = await show(inst.id);
        assert.deepEqual(counts(now), { VDU1: 2, VDU2: 1 });
        assert.equal(level(now), 1);
        const post = (task: string, body: object) =>
          http(base, 'POST', path(`vnf_instances/${inst.id}/${task}`), { headers: m.headers, body });
        const tooFar = await post('scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale', numberOfSteps: 2 });
        assert.ok(isProblem(tooFar, 400), tooFar.text);
        assert.match((tooFar.body as { detail: string }).detail, /from scale level 1 to 3, outside 0\.\.2/);
        assert.ok(isProblem(await post('scale', { type: 'SCALE_OUT', aspectId: 'nope' }), 400));
        const scaledIn = await run(inst.id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
        assert.deepEqual(
          scaledIn.resourceChanges?.affectedVnfcs.map((v) => [v.id, v.changeType]),
          [[added, 'REMOVED']],
        );
        now = await show(inst.id);
        assert.deepEqual(counts(now), { VDU1: 1, VDU2: 1 });
        assert.equal(level(now), 0);

        // Scale to instantiation_level_2 (VDU1 ×3), then to scale level 1 by scaleInfo.
        await run(inst.id, 'scale_to_level', { instantiationLevelId: 'instantiation_level_2' });
        now = await show(inst.id);
        assert.deepEqual(counts(now), { VDU1: 3, VDU2: 1 });
        assert.equal(level(now), 2);
        const toOne = await run(inst.id, 'scale_to_level', {
          scaleInfo: [{ aspectId: 'VDU1_scale', scaleLevel: 1 }],
        });
        assert.deepEqual(changes(toOne, 'affectedVnfcs'), ['REMOVED']);
        now = await show(inst.id);
        assert.deepEqual(counts(now), { VDU1: 2, VDU2: 1 });
        assert.equal(level(now), 1);
        const both = await post('scale_to_level', {
          instantiationLevelId: 'instantiation_level_1',
          scaleInfo: [{ aspectId: 'VDU1_scale', scaleLevel: 0 }],
        });
        assert.ok(isProblem(both, 400));

        // Heal one VNFC (SOL002, named as the major names VNFCs): same VNFC, a new server.
        const target = expected.vnfcOf(now, 'VDU2');
        const targetBefore = now.instantiatedVnfInfo?.vnfcResourceInfo?.find(
          (v) => v.id === target.resourceId,
        );
        assert.ok(targetBefore);
        const healed = await run(inst.id, 'heal', { vnfcInstanceId: [target.id], cause: 'test' });
        assert.deepEqual(healed.operationParams, { vnfcInstanceId: [target.id], cause: 'test' });
        assert.deepEqual(
          healed.resourceChanges?.affectedVnfcs.map((v) => [v.id, v.changeType]),
          [[target.resourceId, 'MODIFIED']],
        );
        now = await show(inst.id);
        const targetAfter = now.instantiatedVnfInfo?.vnfcResourceInfo?.find(
          (v) => v.id === target.resourceId,
        );
        assert.ok(targetAfter);
        assert.notEqual(targetAfter.computeResource.resourceId, targetBefore.computeResource.resourceId);
        const unknownVnfc = await post('heal', { vnfcInstanceId: ['nope'] });
        assert.ok(isProblem(unknownVnfc, 400));
        assert.match((unknownVnfc.body as { detail: string }).detail, /nope/);
        // Heal the whole VNF (SOL003: cause and additionalParams): every VNFC.
        const healAll = await run(inst.id, 'heal', { cause: 'whole', additionalParams: { all: true } });
        assert.equal(
          healAll.resourceChanges?.affectedVnfcs.filter((v) => v.changeType === 'MODIFIED').length,
          3,
        );

        // Operate (SOL002: one VNFC), then the whole VNF: stop, stop again (409), start.
        await run(inst.id, 'operate', {
          vnfcInstanceId: [expected.vnfcOf(now, 'VDU1').id],
          changeStateTo: 'STOPPED',
          stopType: 'FORCEFUL',
        });
        assert.equal((await show(inst.id)).instantiatedVnfInfo?.vnfState, 'STARTED', 'others still run');
        await run(inst.id, 'operate', { changeStateTo: 'STOPPED', stopType: 'FORCEFUL' });
        assert.equal((await show(inst.id)).instantiatedVnfInfo?.vnfState, 'STOPPED');
        assert.ok(isProblem(await post('operate', { changeStateTo: 'STOPPED' }), 409));
        await run(inst.id, 'operate', { changeStateTo: 'STARTED' });
        assert.equal((await show(inst.id)).instantiatedVnfInfo?.vnfState, 'STARTED');

        // Change external connectivity: VDU1_CP1 onto an external VL (in the major's shape).
        const extLink = expected.extVirtualLink;
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
        await expected.externallyConnected(now, (body) => post('change_ext_conn', body));

        // Modify: a stale If-Match is 412; the PATCH runs as a MODIFY_INFO op occ.
        const shown = await http(base, 'GET', path(`vnf_instances/${inst.id}`), { headers: m.headers });
        const etag = shown.headers.get('etag') ?? '';
        const stale = await http(base, 'PATCH', path(`vnf_instances/${inst.id}`), {
          headers: { ...m.headers, 'content-type': 'application/merge-patch+json', 'if-match': '"stale"' },
          body: JSON.stringify({ vnfInstanceName: 'x' }),
        });
        assert.ok(isProblem(stale, 412));
        const modify = expected.modify(now);
        const patch = await http(base, 'PATCH', path(`vnf_instances/${inst.id}`), {
          headers: { ...m.headers, 'content-type': modify.contentType, 'if-match': etag },
          body: JSON.stringify({
            vnfInstanceName: 'vnf-b',
            metadata: { tier: null, zone: 'eu' },
            extensions: { owner: 'ops' },
            ...modify.body,
          }),
        });
        assert.equal(patch.status, 202, patch.text);
        const modified = await c.waitOpOcc(base, idOf(patch.headers.get('location')));
        assert.equal(modified.operation, 'MODIFY_INFO');
        assert.equal(modified.operationState, 'COMPLETED', JSON.stringify(modified.error));
        assert.equal(modified.grantId, undefined);
        assert.equal(modified.changedInfo?.vnfInstanceName, 'vnf-b');
        now = await show(inst.id);
        assert.equal(now.vnfInstanceName, 'vnf-b');
        assert.equal(now.vnfInstanceDescription, 'first');
        assert.deepEqual(now.metadata, { zone: 'eu' });
        assert.deepEqual(now.extensions, { owner: 'ops' });
        assert.notEqual(
          (await http(base, 'GET', path(`vnf_instances/${inst.id}`), { headers: m.headers })).headers.get(
            'etag',
          ),
          etag,
        );
        await modify.check(modified, now, {
          patch: (body) =>
            http(base, 'PATCH', path(`vnf_instances/${inst.id}`), { headers: m.headers, body }),
          wait: (id) => c.waitOpOcc(base, id),
          show: () => show(inst.id),
        });

        // DELETE is refused while INSTANTIATED.
        const del = () => http(base, 'DELETE', path(`vnf_instances/${inst.id}`), { headers: m.headers });
        assert.ok(isProblem(await del(), 409));

        // Terminate gracefully, then delete: the package is no longer used.
        const term = await run(inst.id, 'terminate', {
          terminationType: 'GRACEFUL',
          gracefulTerminationTimeout: 1,
        });
        assert.equal(
          term.resourceChanges?.affectedVnfcs.every((v) => v.changeType === 'REMOVED'),
          true,
        );
        assert.equal(term.resourceChanges?.affectedVnfcs.length, 3);
        now = await show(inst.id);
        assert.equal(now.instantiationState, 'NOT_INSTANTIATED');
        assert.equal(now.instantiatedVnfInfo, undefined);
        assert.equal(now.vimConnectionInfo, undefined);
        assert.equal(await usage(), 'IN_USE');
        assert.equal((await del()).status, 204);
        assert.ok(
          isProblem(await http(base, 'GET', path(`vnf_instances/${inst.id}`), { headers: m.headers }), 404),
        );
        assert.equal(await usage(), 'NOT_IN_USE');

        // Every op occ of the instance is listed (bare array), newest state each, schema-checked.
        const occs = await http<LifeOpOcc[]>(
          base,
          'GET',
          path(`vnf_lcm_op_occs?filter=(eq,vnfInstanceId,${inst.id})&all_fields`),
          { headers: m.headers },
        );
        assert.equal(occs.status, 200);
        assert.ok(Array.isArray(occs.body));
        assert.deepEqual(occs.body.map((o) => o.operation).sort(), expected.operationsRun);
        for (const o of occs.body) assert.equal(o.operationState, 'COMPLETED');
        const shownOcc = await http<LifeOpOcc>(base, 'GET', path(`vnf_lcm_op_occs/${instantiated.id}`), {
          headers: m.headers,
        });
        assert.equal(shownOcc.status, 200);
        assert.ok(shownOcc.headers.get('etag'));
        assert.equal(shownOcc.body.id, instantiated.id);
        // The default list leaves the complex attributes out; a filter on operation works.
        const brief = await http<Record<string, unknown>[]>(
          base,
          'GET',
          path('vnf_lcm_op_occs?filter=(eq,operation,INSTANTIATE)'),
          { headers: m.headers },
        );
        assert.deepEqual(
          brief.body.map((o) => o.id),
          [instantiated.id],
        );
        assert.equal('operationParams' in brief.body[0], false);
        assert.equal('resourceChanges' in brief.body[0], false);
        // CHANGE_VNFPKG is an operation of v2 only.
        const byPkgChange = await http(
          base,
          'GET',
          path('vnf_lcm_op_occs?filter=(eq,operation,CHANGE_VNFPKG)'),
          {
            headers: m.headers,
          },
        );
        assert.equal(byPkgChange.status, m.changeVnfpkg ? 200 : 400, byPkgChange.text);
      });

      test('terminate without a timeout gets the default; the op occ records the parameters as accepted', async () => {
        const inst = await m.client.createInstance(server.url, server.vnfdId);
        await run(inst.id, 'instantiate', INSTANTIATE);
        const id = await m.client.startTask(server.url, inst.id, 'terminate', {
          terminationType: 'FORCEFUL',
        });
        const term = await c.waitOpOcc(server.url, id);
        assert.deepEqual(term.operationParams, { terminationType: 'FORCEFUL' });
        assert.equal(term.operationState, 'COMPLETED');
        const inst2 = await m.client.createInstance(server.url, server.vnfdId);
        await run(inst2.id, 'instantiate', { ...INSTANTIATE, instantiationLevelId: 'instantiation_level_2' });
        assert.deepEqual(counts(await show(inst2.id)), { VDU1: 3, VDU2: 1 });
        const graceful = await run(inst2.id, 'terminate', { terminationType: 'GRACEFUL' });
        assert.equal(graceful.operationParams.gracefulTerminationTimeout, 10);
      });
    });
  }
}

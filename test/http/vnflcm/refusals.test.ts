/**
 * Requests that cannot succeed are refused at once (400, 404, 406, 409, 422), on both LCM majors
 * and both databases, and leave no op occ behind; then the busy rule: while one operation runs,
 * every other on the instance is 409 at once, DELETE and PATCH too, until it is cancelled and
 * rolled back. Where the majors differ (Tacker v1's 404 for an unknown vnfdId, v2.6.1 shapes,
 * no change_vnfpkg on v1, the Version header optional on v1 and required on v2, Tacker v1's
 * vnfPkgId on PATCH) the expectations are per major.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { idOf } from './lcm-client.ts';
import { lcmServer, SIM } from './lcm-server.ts';
import { INSTANTIATE } from './lcm-support.ts';
import { MAJORS, type Major } from './majors.ts';
import { extVirtualLinkV1 } from './v1-support.ts';

const UNKNOWN = '6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11';

type Res = Awaited<ReturnType<typeof http>>;

interface Refusals {
  /** Status of a create naming a vnfdId no package has: 404 as Tacker v1 answers, 422 on v2. */
  unknownVnfd: number;
  extVirtualLink: (id: string, network: string) => Record<string, unknown>;
  /** A request body in the other major's shape: 400. */
  wrongShapes: Record<string, unknown>[];
  /** vimConnectionInfo in the major's shape, refused while NOT_INSTANTIATED. */
  vimConnectionInfo: unknown;
  /** The major's Version header rules. */
  version(get: (headers: Record<string, string>) => Promise<Res>): Promise<void>;
  /** The major's own PATCH refusals, before any op occ exists. */
  patchRefusals(patch: (body: unknown) => Promise<Res>, pkgId: string): Promise<void>;
  /** Modifies the instance once where the major can without a change (v1: vnfPkgId of its own package). */
  modifyAlike?(patch: (body: unknown) => Promise<Res>, pkgId: string): Promise<string>;
}

const REFUSALS: Record<Major['major'], Refusals> = {
  v1: {
    unknownVnfd: 404,
    extVirtualLink: extVirtualLinkV1,
    wrongShapes: [
      // A v3.3.1 shape on v1 is a 400: vimConnectionInfo must be an array, cpConfig too.
      { flavourId: 'simple', vimConnectionInfo: { a: { vimType: 'BOSUN.SIM.V1' } } },
      {
        flavourId: 'simple',
        extVirtualLinks: [{ id: 'e', resourceId: 'n', extCps: [{ cpdId: 'VDU1_CP1', cpConfig: { c: {} } }] }],
      },
    ],
    vimConnectionInfo: [{ id: 'v', vimType: 'BOSUN.SIM.V1' }],
    async version(get) {
      // Optional on v1; a malformed one is 400, a v2 one 406.
      assert.equal((await get({})).status, 200);
      assert.ok(isProblem(await get({ Version: 'x' }), 400));
      assert.ok(isProblem(await get({ Version: '2.0.0' }), 406));
    },
    async patchRefusals(patch, pkgId) {
      // Deleting a VIM connection while NOT_INSTANTIATED, a contradictory vnfPkgId: 400; an
      // unknown vnfPkgId: 422.
      assert.ok(isProblem(await patch({ vimConnectionInfoDeleteIds: ['v'] }), 400));
      assert.ok(isProblem(await patch({ vnfPkgId: pkgId, vnfdId: 'other' }), 400));
      assert.ok(isProblem(await patch({ vnfPkgId: UNKNOWN }), 422));
    },
    async modifyAlike(patch, pkgId) {
      // vnfPkgId naming the instance's own package is a plain rename-free modify.
      const same = await patch({ vnfPkgId: pkgId });
      assert.equal(same.status, 202, same.text);
      return idOf(same.headers.get('location'));
    },
  },
  v2: {
    unknownVnfd: 422,
    extVirtualLink: (id, network) => ({ id, resourceId: network, extCps: [{ cpdId: 'VDU1_CP1' }] }),
    wrongShapes: [
      { flavourId: 'simple', bogus: 1 },
      { flavourId: 'simple', vimConnectionInfo: [{ id: 'a', vimType: 'BOSUN.SIM.V1' }] },
    ],
    vimConnectionInfo: { v: { vimType: 'BOSUN.SIM.V1' } },
    async version(get) {
      // Required on v2.
      assert.ok(isProblem(await get({}), 400));
    },
    patchRefusals: async () => {},
  },
};

for (const dialect of DIALECTS) {
  for (const m of MAJORS) {
    const expected = REFUSALS[m.major];
    describe(`requests refused on ${m.prefix} (${dialect})`, () => {
      const server = lcmServer(dialect);

      test('requests that cannot succeed are refused at once (400, 404, 409, 422)', async () => {
        const base = server.url;
        const c = m.client;
        const inst = await c.createInstance(base, server.vnfdId);
        const post = (task: string, body: unknown, id = inst.id) =>
          http(base, 'POST', `${m.prefix}/vnf_instances/${id}/${task}`, {
            headers: m.headers,
            body: body as object,
          });
        const create = (body: object) =>
          http(base, 'POST', `${m.prefix}/vnf_instances`, { headers: m.headers, body });
        // Unknown vnfdId (404 or 422 by major); malformed body: 400.
        const unknown = await create({ vnfdId: 'nope' });
        assert.ok(isProblem(unknown, expected.unknownVnfd));
        assert.match((unknown.body as { detail: string }).detail, /vnfdId nope/);
        assert.ok(isProblem(await create({}), 400));
        assert.ok(isProblem(await create({ vnfdId: server.vnfdId, bogus: 1 }), 400));
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
        assert.ok(isProblem(await post('instantiate', {}), 400));
        for (const body of expected.wrongShapes) assert.ok(isProblem(await post('instantiate', body), 400));
        // Operations that need an instantiated VNF: 409.
        for (const [task, body] of [
          ['terminate', { terminationType: 'FORCEFUL' }],
          ['scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }],
          ['scale_to_level', { instantiationLevelId: 'instantiation_level_2' }],
          ['heal', { cause: 'c' }],
          ['operate', { changeStateTo: 'STOPPED' }],
          ['change_flavour', { newFlavourId: 'simple' }],
          ['change_ext_conn', { extVirtualLinks: [expected.extVirtualLink('e', 'n')] }],
        ] as const) {
          const res = await post(task, body);
          assert.ok(isProblem(res, 409), `${task}: ${res.status} ${res.text}`);
          assert.match((res.body as { detail: string }).detail, /NOT_INSTANTIATED/);
        }
        // change_vnfpkg: 409 as the others on v2; v2.6.1 has no such task (404).
        assert.ok(
          isProblem(await post('change_vnfpkg', { vnfdId: server.vnfdId }), m.changeVnfpkg ? 409 : 404),
        );
        // Unknown instance or op occ, malformed id: 404.
        assert.ok(isProblem(await post('instantiate', INSTANTIATE, UNKNOWN), 404));
        assert.ok(
          isProblem(
            await http(base, 'GET', `${m.prefix}/vnf_instances/not-a-uuid`, { headers: m.headers }),
            404,
          ),
        );
        assert.ok(
          isProblem(
            await http(base, 'GET', `${m.prefix}/vnf_lcm_op_occs/${UNKNOWN}`, { headers: m.headers }),
            404,
          ),
        );
        await expected.version((headers) => http(base, 'GET', `${m.prefix}/vnf_instances`, { headers }));
        // PATCH: vimConnectionInfo while NOT_INSTANTIATED is a 400, an empty patch too.
        const patch = (body: unknown) =>
          http(base, 'PATCH', `${m.prefix}/vnf_instances/${inst.id}`, {
            headers: { ...m.headers, 'content-type': 'application/merge-patch+json' },
            body: JSON.stringify(body),
          });
        assert.ok(isProblem(await patch({ vimConnectionInfo: expected.vimConnectionInfo }), 400));
        assert.ok(isProblem(await patch({}), 400));
        await expected.patchRefusals(patch, server.pkgId);
        // Nothing above left an op occ behind.
        const occs = await http(
          base,
          'GET',
          `${m.prefix}/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,${inst.id})`,
          {
            headers: m.headers,
          },
        );
        assert.deepEqual(occs.body, []);
        if (expected.modifyAlike) {
          const id = await expected.modifyAlike(patch, server.pkgId);
          assert.equal((await c.waitOpOcc(base, id)).operationState, 'COMPLETED');
        }
      });

      test('busy: while one operation runs, every other on the instance is 409 at once; DELETE too', async () => {
        const base = server.url;
        const c = m.client;
        const inst = await c.createInstance(base, server.vnfdId);
        await http(base, 'POST', `${SIM}/faults`, {
          body: { kind: 'server.create', action: 'hang', timeoutMs: 30000 },
        });
        const running = await c.startTask(base, inst.id, 'instantiate', INSTANTIATE);
        await c.waitOpOcc(base, running, ['PROCESSING']);
        // Every injected fault has been taken by a simulated VIM call.
        for (let i = 0; i < 500; i++) {
          if ((await http<unknown[]>(base, 'GET', `${SIM}/faults`)).body.length === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const processing = await c.waitOpOcc(base, running, ['PROCESSING']);
        assert.deepEqual(Object.keys(processing._links).sort(), ['cancel', 'self', 'vnfInstance']);
        const post = (task: string, body: object) =>
          http(base, 'POST', `${m.prefix}/vnf_instances/${inst.id}/${task}`, { headers: m.headers, body });
        const second = await post('instantiate', INSTANTIATE);
        assert.ok(isProblem(second, 409));
        assert.match((second.body as { detail: string }).detail, /busy/);
        const patch = await http(base, 'PATCH', `${m.prefix}/vnf_instances/${inst.id}`, {
          headers: { ...m.headers, 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ vnfInstanceName: 'x' }),
        });
        assert.ok(isProblem(patch, 409));
        assert.ok(
          isProblem(
            await http(base, 'DELETE', `${m.prefix}/vnf_instances/${inst.id}`, { headers: m.headers }),
            409,
          ),
        );
        const opOccTask = (t: string, headers: Record<string, string>, body?: object) =>
          http(base, 'POST', `${m.prefix}/vnf_lcm_op_occs/${running}/${t}`, {
            headers,
            ...(body ? { body } : {}),
          });
        // Retry, rollback and fail need FAILED_TEMP: 409 while PROCESSING.
        for (const t of ['retry', 'rollback', 'fail'])
          assert.ok(isProblem(await opOccTask(t, m.headers), 409), t);
        // Cancel (the Tacker client sends it without a Version header on v1) ends the hung step.
        const cancel = await opOccTask('cancel', m.major === 'v1' ? {} : m.headers, {
          cancelMode: 'FORCEFUL',
        });
        assert.equal(cancel.status, 202, cancel.text);
        const cancelled = await c.waitOpOcc(base, running);
        assert.equal(cancelled.operationState, 'FAILED_TEMP');
        assert.ok(isProblem(await opOccTask('cancel', m.headers, { cancelMode: 'GRACEFUL' }), 409));
        // FAILED_TEMP holds the instance too; roll it back and the instance is free again.
        assert.ok(isProblem(await post('instantiate', INSTANTIATE), 409));
        const rb = await opOccTask('rollback', m.headers);
        assert.equal(rb.status, 202, rb.text);
        assert.equal((await c.waitOpOcc(base, running)).operationState, 'ROLLED_BACK');
        assert.equal(
          (await c.runTask(base, inst.id, 'instantiate', INSTANTIATE)).operationState,
          'COMPLETED',
        );
      });
    });
  }
}

/**
 * When operations fail on the simulated VIM (injected faults, exhausted zones), on both LCM majors
 * and both databases: FAILED_TEMP with the VIM's message, then retry (resumes, completes, no
 * duplicate resources), rollback (exactly what the op occ added is removed) or fail (FAILED, 200
 * with the op occ, instance released); rollbacks that cannot be done are refused at the API (422
 * on /vnflcm/v2, 409 on /vnflcm/v1 as Tacker's v1 API answers); FORCEFUL cancel of a hung step;
 * the op occ tasks' state rules (409). /vnflcm/v1 op occs are checked with the ETSI v2.6.1 schemas.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { lcmServer, SIM, simFault, simServers } from './lcm-server.ts';
import { INSTANTIATE } from './lcm-support.ts';
import { type AnyInstance, type AnyOpOcc, MAJORS, type Major } from './majors.ts';

/** One request of every operation type the major has: the busy rule answers each with 409. */
const busyChecks = (m: Major, vnfdId: string): [string, Record<string, unknown>][] => [
  ['instantiate', INSTANTIATE],
  ['terminate', { terminationType: 'FORCEFUL' }],
  ['scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }],
  ['scale_to_level', { instantiationLevelId: 'instantiation_level_2' }],
  ['heal', {}],
  ['operate', { changeStateTo: 'STOPPED' }],
  ['change_flavour', { newFlavourId: 'simple' }],
  ['change_ext_conn', { extVirtualLinks: [{ id: 'e', resourceId: 'n', extCps: [{ cpdId: 'VDU1_CP1' }] }] }],
  ...(m.changeVnfpkg ? [['change_vnfpkg', { vnfdId }] as [string, Record<string, unknown>]] : []),
];

/** A heal that fails on the VIM: SOL003's whole VNF on v2, SOL002's one VNFC on v1 (as Tacker's client sends it). */
const HEAL: Record<Major['major'], (inst: AnyInstance) => Record<string, unknown>> = {
  v1: (inst) => ({ vnfcInstanceId: [inst.instantiatedVnfInfo?.vnfcResourceInfo?.[0]?.id] }),
  v2: () => ({}),
};

for (const dialect of DIALECTS) {
  for (const m of MAJORS) {
    describe(`LCM failures, retry, rollback, fail and cancel on ${m.prefix} (${dialect})`, () => {
      const server = lcmServer(dialect);
      const c = m.client;

      const fault = (kind: string, action: 'fail' | 'hang', extra: object = {}) =>
        simFault(server.url, kind, action, extra);
      const servers = (instanceId: string) => simServers(server.url, instanceId);
      const task = (opOccId: string, name: string, body?: object) =>
        http(server.url, 'POST', `${m.prefix}/vnf_lcm_op_occs/${opOccId}/${name}`, {
          headers: m.headers,
          ...(body ? { body } : {}),
        });
      const completed = (op: AnyOpOcc) =>
        assert.equal(op.operationState, 'COMPLETED', `${op.operation}: ${JSON.stringify(op.error)}`);
      const failedTemp = async (instanceId: string, name: string, body: Record<string, unknown>) => {
        const op = await c.runTask(server.url, instanceId, name, body);
        assert.equal(op.operationState, 'FAILED_TEMP', JSON.stringify(op));
        return op;
      };
      const ended = async (id: string, state: string) => {
        const op = await c.waitOpOcc(server.url, id);
        assert.equal(op.operationState, state, JSON.stringify(op.error));
        return op;
      };
      const instantiated = async () => {
        const inst = await c.createInstance(server.url, server.vnfdId);
        completed(await c.runTask(server.url, inst.id, 'instantiate', INSTANTIATE));
        return inst;
      };

      test('a failed instantiate is FAILED_TEMP with the VIM message; retry completes it without duplicates', async () => {
        const inst = await c.createInstance(server.url, server.vnfdId);
        await fault('server.create', 'fail', { message: 'Simulated compute failure' });
        const failed = await failedTemp(inst.id, 'instantiate', INSTANTIATE);
        assert.equal(failed.error?.detail, 'Simulated compute failure');
        assert.equal(failed.error?.step, 'infra');
        assert.equal(failed.error?.infraErrorCode, 'VIM_OPERATION_FAILED');
        assert.deepEqual(Object.keys(failed._links).sort(), [
          'fail',
          'retry',
          'rollback',
          'self',
          'vnfInstance',
        ]);
        assert.match(failed._links.retry.href, new RegExp(`${m.prefix}/vnf_lcm_op_occs/${failed.id}/retry$`));
        // The instance is held: every operation (and DELETE) is refused while FAILED_TEMP.
        const refused = await http(server.url, 'POST', `${m.prefix}/vnf_instances/${inst.id}/instantiate`, {
          headers: m.headers,
          body: INSTANTIATE,
        });
        assert.ok(isProblem(refused, 409));
        assert.match((refused.body as { detail: string }).detail, /FAILED_TEMP operation, INSTANTIATE/);
        assert.ok(
          isProblem(
            await http(server.url, 'DELETE', `${m.prefix}/vnf_instances/${inst.id}`, { headers: m.headers }),
            409,
          ),
        );
        for (const [name, body] of busyChecks(m, server.vnfdId)) {
          const res = await http(server.url, 'POST', `${m.prefix}/vnf_instances/${inst.id}/${name}`, {
            headers: m.headers,
            body,
          });
          assert.ok(isProblem(res, 409), `${name}: ${res.status}`);
          assert.match((res.body as { detail: string }).detail, /has a FAILED_TEMP operation/);
        }
        const patchWhileFailed = await http(server.url, 'PATCH', `${m.prefix}/vnf_instances/${inst.id}`, {
          headers: { ...m.headers, 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ vnfInstanceName: 'x' }),
        });
        assert.ok(isProblem(patchWhileFailed, 409));
        // Tasks that need another state: 409.
        assert.ok(isProblem(await task(failed.id, 'cancel', { cancelMode: 'GRACEFUL' }), 409));
        // The Tacker client sends retry with no body and no Content-Type.
        const retry = await task(failed.id, 'retry');
        assert.equal(retry.status, 202, retry.text);
        const done = await ended(failed.id, 'COMPLETED');
        assert.equal(done.error, undefined);
        for (const t of ['retry', 'rollback', 'fail']) assert.ok(isProblem(await task(failed.id, t), 409), t);
        const now = await c.getInstance(server.url, inst.id);
        assert.equal(now.instantiationState, 'INSTANTIATED');
        assert.equal(now.instantiatedVnfInfo?.vnfcResourceInfo?.length, 2);
        assert.equal((await servers(inst.id)).length, 2);
      });

      test('rollback of a failed instantiate removes everything it created', async () => {
        const inst = await c.createInstance(server.url, server.vnfdId);
        await fault('volume.create', 'fail', { message: 'Simulated volume failure' });
        const failed = await failedTemp(inst.id, 'instantiate', INSTANTIATE);
        assert.equal((await task(failed.id, 'rollback')).status, 202);
        await ended(failed.id, 'ROLLED_BACK');
        assert.equal((await servers(inst.id)).length, 0);
        const now = await c.getInstance(server.url, inst.id);
        assert.equal(now.instantiationState, 'NOT_INSTANTIATED');
        // The instance is free again.
        completed(await c.runTask(server.url, inst.id, 'instantiate', INSTANTIATE));
      });

      test('rollback of a half-done scale out removes exactly what it added', async () => {
        const inst = await instantiated();
        const before = (await servers(inst.id)).map((s) => s.id).sort();
        const infoBefore = (await c.getInstance(server.url, inst.id)).instantiatedVnfInfo;
        // The first new server fails, after this op occ created the new VNFCs' ports and volumes.
        await fault('server.create', 'fail', { message: 'boom', count: 1 });
        const failed = await failedTemp(inst.id, 'scale', {
          type: 'SCALE_OUT',
          aspectId: 'VDU1_scale',
          numberOfSteps: 2,
        });
        const rb = await task(failed.id, 'rollback');
        assert.equal(rb.status, 202, rb.text);
        const rolled = await ended(failed.id, 'ROLLED_BACK');
        assert.deepEqual(Object.keys(rolled._links).sort(), ['self', 'vnfInstance']);
        assert.deepEqual((await servers(inst.id)).map((s) => s.id).sort(), before);
        const now = await c.getInstance(server.url, inst.id);
        assert.deepEqual(now.instantiatedVnfInfo?.vnfcResourceInfo, infoBefore?.vnfcResourceInfo);
        assert.deepEqual(now.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'VDU1_scale', scaleLevel: 0 }]);
      });

      test(`rollback is refused with ${m.refusedRollback} where it cannot be done (SCALE_IN, HEAL, TERMINATE); retry still works`, async () => {
        const inst = await instantiated();
        // SCALE_IN
        completed(
          await c.runTask(server.url, inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }),
        );
        await fault('server.delete', 'fail');
        const scaleIn = await failedTemp(inst.id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
        assert.equal(scaleIn._links.rollback, undefined);
        const refused = await task(scaleIn.id, 'rollback');
        assert.ok(isProblem(refused, m.refusedRollback));
        assert.match((refused.body as { detail: string }).detail, /Rollback of SCALE is not supported/);
        assert.equal((await c.getOpOcc(server.url, scaleIn.id)).operationState, 'FAILED_TEMP');
        assert.equal((await task(scaleIn.id, 'retry')).status, 202);
        await ended(scaleIn.id, 'COMPLETED');
        // HEAL
        const healRequest = HEAL[m.major](await c.getInstance(server.url, inst.id));
        await fault('server.rebuild', 'fail');
        await fault('server.create', 'fail');
        const heal = await failedTemp(inst.id, 'heal', healRequest);
        assert.ok(isProblem(await task(heal.id, 'rollback'), m.refusedRollback));
        await http(server.url, 'DELETE', `${SIM}/faults`);
        assert.equal((await task(heal.id, 'retry')).status, 202);
        await ended(heal.id, 'COMPLETED');
        // TERMINATE
        await fault('server.delete', 'fail');
        const term = await failedTemp(inst.id, 'terminate', { terminationType: 'FORCEFUL' });
        assert.ok(isProblem(await task(term.id, 'rollback'), m.refusedRollback));
        assert.equal((await task(term.id, 'retry')).status, 202);
        await ended(term.id, 'COMPLETED');
        assert.equal((await servers(inst.id)).length, 0);
      });

      test('fail: FAILED_TEMP → FAILED at once (200 with the op occ); the instance is released', async () => {
        const inst = await c.createInstance(server.url, server.vnfdId);
        await fault('server.create', 'fail');
        const failed = await failedTemp(inst.id, 'instantiate', INSTANTIATE);
        const res = await task(failed.id, 'fail');
        assert.equal(res.status, 200, res.text);
        const body = res.body as AnyOpOcc;
        assert.equal(body.operationState, 'FAILED');
        assert.equal(body.id, failed.id);
        assert.ok(body.error);
        assert.deepEqual(Object.keys(body._links).sort(), ['self', 'vnfInstance']);
        assert.ok(isProblem(await task(failed.id, 'fail'), 409));
        assert.ok(isProblem(await task(failed.id, 'retry'), 409));
        // Released: a new instantiate is accepted (its infra step cleans up what the failed one left).
        completed(await c.runTask(server.url, inst.id, 'instantiate', INSTANTIATE));
        // Tasks on unknown op occs: 404.
        assert.ok(isProblem(await task('6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11', 'retry'), 404));
      });

      test("an exhausted zone fails with Nova's message; retry succeeds once it is restored", async () => {
        const zones = (await http<{ name: string }[]>(server.url, 'GET', `${SIM}/zones`)).body.map(
          (z) => z.name,
        );
        for (const z of zones)
          assert.equal((await http(server.url, 'POST', `${SIM}/zones/${z}/exhaust`)).status, 200);
        const inst = await c.createInstance(server.url, server.vnfdId);
        try {
          const failed = await c.runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
          assert.equal(failed.operationState, 'FAILED_TEMP');
          assert.match(failed.error?.detail ?? '', /No valid host was found/);
          assert.equal(failed.error?.infraErrorCode, 'NO_VALID_HOST');
          for (const z of zones) await http(server.url, 'POST', `${SIM}/zones/${z}/restore`);
          assert.equal((await task(failed.id, 'retry')).status, 202);
          assert.equal((await c.waitOpOcc(server.url, failed.id)).operationState, 'COMPLETED');
        } finally {
          for (const z of zones) await http(server.url, 'POST', `${SIM}/zones/${z}/restore`);
        }
      });

      test('FORCEFUL cancel aborts a hung step: FAILED_TEMP with the cancel in error; then rollback', async () => {
        const inst = await c.createInstance(server.url, server.vnfdId);
        await fault('server.create', 'hang', { timeoutMs: 60000 });
        const id = await c.startTask(server.url, inst.id, 'instantiate', INSTANTIATE);
        // The hang has begun when its fault is used up.
        for (let i = 0; i < 500; i++) {
          if ((await http<unknown[]>(server.url, 'GET', `${SIM}/faults`)).body.length === 0) break;
          await new Promise((r) => setTimeout(r, 10));
        }
        const processing = await c.getOpOcc(server.url, id);
        assert.equal(processing.operationState, 'PROCESSING');
        assert.ok(processing._links.cancel);
        // Busy: every operation type, DELETE and PATCH get 409 while PROCESSING.
        for (const [name, body] of busyChecks(m, server.vnfdId)) {
          const res = await http(server.url, 'POST', `${m.prefix}/vnf_instances/${inst.id}/${name}`, {
            headers: m.headers,
            body,
          });
          assert.ok(isProblem(res, 409), `${name}: ${res.status}`);
          assert.match((res.body as { detail: string }).detail, /is busy: INSTANTIATE .* is PROCESSING/);
        }
        const patch = await http(server.url, 'PATCH', `${m.prefix}/vnf_instances/${inst.id}`, {
          headers: { ...m.headers, 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ vnfInstanceName: 'x' }),
        });
        assert.ok(isProblem(patch, 409));
        assert.ok(
          isProblem(
            await http(server.url, 'DELETE', `${m.prefix}/vnf_instances/${inst.id}`, { headers: m.headers }),
            409,
          ),
        );
        assert.ok(isProblem(await task(id, 'retry'), 409));
        assert.ok(isProblem(await task(id, 'cancel', {}), 400));
        const started = Date.now();
        assert.equal((await task(id, 'cancel', { cancelMode: 'FORCEFUL' })).status, 202);
        assert.ok(isProblem(await task(id, 'cancel', { cancelMode: 'FORCEFUL' }), 409));
        const cancelled = await c.waitOpOcc(server.url, id);
        assert.ok(Date.now() - started < 10000);
        assert.equal(cancelled.operationState, 'FAILED_TEMP');
        assert.equal(cancelled.isCancelPending, false);
        assert.equal(cancelled.cancelMode, 'FORCEFUL');
        assert.match(cancelled.error?.detail ?? '', /cancelled \(FORCEFUL\)/);
        assert.equal((await task(id, 'rollback')).status, 202);
        assert.equal((await c.waitOpOcc(server.url, id)).operationState, 'ROLLED_BACK');
        assert.equal((await servers(inst.id)).length, 0);
      });

      test('concurrent operations on one instance: one at a time is accepted, the others get 409', async () => {
        const inst = await c.createInstance(server.url, server.vnfdId);
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            i % 2 === 0
              ? http(server.url, 'POST', `${m.prefix}/vnf_instances/${inst.id}/instantiate`, {
                  headers: m.headers,
                  body: INSTANTIATE,
                })
              : http(server.url, 'PATCH', `${m.prefix}/vnf_instances/${inst.id}`, {
                  headers: { ...m.headers, 'content-type': 'application/merge-patch+json' },
                  body: JSON.stringify({ vnfInstanceName: `n${i}` }),
                }),
          ),
        );
        const statuses = results.map((r) => r.status);
        assert.ok(
          statuses.every((s) => s === 202 || s === 409),
          JSON.stringify(statuses),
        );
        const accepted = results.filter((r) => r.status === 202);
        assert.ok(accepted.length >= 1, JSON.stringify(statuses));
        // Usually exactly one wins; on a loaded machine a quick PATCH may complete before a later
        // request arrives, which may then be accepted too. What must hold: the accepted operations
        // never overlap, each starting after the previous one ended.
        const ops = await Promise.all(
          accepted.map((r) =>
            c.waitOpOcc(server.url, (r.headers.get('location') ?? '').split('/').pop() as string),
          ),
        );
        for (const op of ops) completed(op);
        ops.sort((a, b) => a.startTime.localeCompare(b.startTime));
        for (let i = 1; i < ops.length; i++) {
          assert.ok(
            ops[i].startTime >= ops[i - 1].stateEnteredTime,
            `${ops[i].operation} started at ${ops[i].startTime}, before ${ops[i - 1].operation} ended at ${ops[i - 1].stateEnteredTime}`,
          );
        }
      });
    });
  }
}

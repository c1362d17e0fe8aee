/**
 * When operations fail on the simulated VIM (injected faults, exhausted zones): FAILED_TEMP with
 * the VIM's message, then retry (resumes, completes, no duplicate resources), rollback (exactly
 * what the op occ added is removed) or fail (FAILED, instance released); rollbacks that cannot
 * be done are refused at the API with 422; FORCEFUL cancel of a hung step; the op occ tasks'
 * state rules (409).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import {
  createInstance,
  getInstance,
  getOpOcc,
  H,
  INSTANTIATE,
  type OpOcc,
  onboardOnce,
  runTask,
  startTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';

const SIM = '/bosun/v1/sim';

const completed = (op: OpOcc) =>
  assert.equal(op.operationState, 'COMPLETED', `${op.operation}: ${JSON.stringify(op.error)}`);

/** One request of every operation type: the busy rule answers each with 409. */
const busyChecks = (vnfdId: string): [string, Record<string, unknown>][] => [
  ['instantiate', INSTANTIATE],
  ['terminate', { terminationType: 'FORCEFUL' }],
  ['scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }],
  ['scale_to_level', { instantiationLevelId: 'instantiation_level_2' }],
  ['heal', {}],
  ['operate', { changeStateTo: 'STOPPED' }],
  ['change_flavour', { newFlavourId: 'simple' }],
  ['change_ext_conn', { extVirtualLinks: [{ id: 'e', resourceId: 'n', extCps: [{ cpdId: 'VDU1_CP1' }] }] }],
  ['change_vnfpkg', { vnfdId }],
];

interface SimServer {
  id: string;
  instanceId?: string;
  vduId: string;
  opOccId?: string;
}

for (const dialect of DIALECTS) {
  describe(`LCM failures, retry, rollback, fail and cancel (${dialect})`, () => {
    let server: TestServer;
    let vnfdId: string;
    before(async () => {
      server = await startTestServer(dialect, {
        config: {
          worker: { pollIntervalMs: 50, leaseMs: 1500 },
          sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 },
        },
      });
      vnfdId = (await onboardOnce(server.url)).vnfdId as string;
    });
    after(() => server.close());

    const fault = async (kind: string, action: 'fail' | 'hang', extra: Record<string, unknown> = {}) => {
      const res = await http(server.url, 'POST', `${SIM}/faults`, { body: { kind, action, ...extra } });
      assert.equal(res.status, 201, res.text);
    };
    const servers = async (instanceId: string) =>
      (await http<SimServer[]>(server.url, 'GET', `${SIM}/servers?instanceId=${instanceId}`)).body;
    const task = (opOccId: string, name: string, body?: object) =>
      http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${opOccId}/${name}`, {
        headers: H,
        ...(body ? { body } : {}),
      });
    const instantiated = async () => {
      const inst = await createInstance(server.url, vnfdId);
      const op = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      return inst;
    };

    test('a failed instantiate is FAILED_TEMP with the VIM message; retry completes it without duplicates', async () => {
      const inst = await createInstance(server.url, vnfdId);
      await fault('server.create', 'fail', { message: 'Simulated compute failure' });
      const failed = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(failed.operationState, 'FAILED_TEMP');
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
      // The instance is held: every operation (and DELETE) is refused while FAILED_TEMP.
      const refused = await http(server.url, 'POST', `${V2}/vnf_instances/${inst.id}/instantiate`, {
        headers: H,
        body: INSTANTIATE,
      });
      assert.ok(isProblem(refused, 409));
      assert.match((refused.body as { detail: string }).detail, /FAILED_TEMP operation, INSTANTIATE/);
      assert.ok(
        isProblem(await http(server.url, 'DELETE', `${V2}/vnf_instances/${inst.id}`, { headers: H }), 409),
      );
      for (const [name, body] of busyChecks(vnfdId)) {
        const res = await http(server.url, 'POST', `${V2}/vnf_instances/${inst.id}/${name}`, {
          headers: H,
          body,
        });
        assert.ok(isProblem(res, 409), `${name}: ${res.status}`);
        assert.match((res.body as { detail: string }).detail, /has a FAILED_TEMP operation/);
      }
      const patchWhileFailed = await http(server.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ vnfInstanceName: 'x' }),
      });
      assert.ok(isProblem(patchWhileFailed, 409));
      // Tasks that need another state: 409.
      assert.ok(isProblem(await task(failed.id, 'cancel', { cancelMode: 'GRACEFUL' }), 409));
      const retry = await task(failed.id, 'retry');
      assert.equal(retry.status, 202);
      const done = await waitOpOcc(server.url, failed.id);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      assert.equal(done.error, undefined);
      assert.ok(isProblem(await task(failed.id, 'retry'), 409));
      assert.ok(isProblem(await task(failed.id, 'rollback'), 409));
      assert.ok(isProblem(await task(failed.id, 'fail'), 409));
      const now = await getInstance(server.url, inst.id);
      assert.equal(now.instantiationState, 'INSTANTIATED');
      assert.equal(now.instantiatedVnfInfo?.vnfcResourceInfo?.length, 2);
      assert.equal((await servers(inst.id)).length, 2);
    });

    test('rollback of a failed instantiate removes everything it created', async () => {
      const inst = await createInstance(server.url, vnfdId);
      await fault('volume.create', 'fail', { message: 'Simulated volume failure' });
      const failed = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal((await task(failed.id, 'rollback')).status, 202);
      const rolled = await waitOpOcc(server.url, failed.id);
      assert.equal(rolled.operationState, 'ROLLED_BACK', JSON.stringify(rolled.error));
      assert.equal((await servers(inst.id)).length, 0);
      const now = await getInstance(server.url, inst.id);
      assert.equal(now.instantiationState, 'NOT_INSTANTIATED');
      // The instance is free again.
      const again = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(again.operationState, 'COMPLETED', JSON.stringify(again.error));
    });

    test('rollback of a half-done scale out removes exactly what it added', async () => {
      const inst = await instantiated();
      const before = (await servers(inst.id)).map((s) => s.id).sort();
      const infoBefore = (await getInstance(server.url, inst.id)).instantiatedVnfInfo;
      // The first new server fails, after this op occ created the new VNFCs' ports and volumes.
      await fault('server.create', 'fail', { message: 'boom', count: 1 });
      const failed = await runTask(server.url, inst.id, 'scale', {
        type: 'SCALE_OUT',
        aspectId: 'VDU1_scale',
        numberOfSteps: 2,
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal((await task(failed.id, 'rollback')).status, 202);
      const rolled = await waitOpOcc(server.url, failed.id);
      assert.equal(rolled.operationState, 'ROLLED_BACK', JSON.stringify(rolled.error));
      assert.deepEqual((await servers(inst.id)).map((s) => s.id).sort(), before);
      const now = await getInstance(server.url, inst.id);
      assert.deepEqual(now.instantiatedVnfInfo?.vnfcResourceInfo, infoBefore?.vnfcResourceInfo);
      assert.deepEqual(now.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'VDU1_scale', scaleLevel: 0 }]);
    });

    test('rollback is refused with 422 where it cannot be done (TERMINATE, HEAL, SCALE_IN); retry still works', async () => {
      const inst = await instantiated();
      // SCALE_IN
      completed(await runTask(server.url, inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }));
      await fault('server.delete', 'fail');
      const scaleIn = await runTask(server.url, inst.id, 'scale', {
        type: 'SCALE_IN',
        aspectId: 'VDU1_scale',
      });
      assert.equal(scaleIn.operationState, 'FAILED_TEMP');
      assert.equal(scaleIn._links.rollback, undefined);
      const refused = await task(scaleIn.id, 'rollback');
      assert.ok(isProblem(refused, 422));
      assert.match((refused.body as { detail: string }).detail, /Rollback of SCALE is not supported/);
      assert.equal((await getOpOcc(server.url, scaleIn.id)).operationState, 'FAILED_TEMP');
      assert.equal((await task(scaleIn.id, 'retry')).status, 202);
      completed(await waitOpOcc(server.url, scaleIn.id));
      // HEAL
      await fault('server.rebuild', 'fail');
      await fault('server.create', 'fail');
      const heal = await runTask(server.url, inst.id, 'heal', {});
      assert.equal(heal.operationState, 'FAILED_TEMP', JSON.stringify(heal));
      assert.ok(isProblem(await task(heal.id, 'rollback'), 422));
      await http(server.url, 'DELETE', `${SIM}/faults`);
      assert.equal((await task(heal.id, 'retry')).status, 202);
      completed(await waitOpOcc(server.url, heal.id));
      // TERMINATE
      await fault('server.delete', 'fail');
      const term = await runTask(server.url, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal(term.operationState, 'FAILED_TEMP');
      assert.ok(isProblem(await task(term.id, 'rollback'), 422));
      assert.equal((await task(term.id, 'retry')).status, 202);
      completed(await waitOpOcc(server.url, term.id));
      assert.equal((await servers(inst.id)).length, 0);
    });

    test('fail: FAILED_TEMP → FAILED at once (200 with the op occ); the instance is released', async () => {
      const inst = await createInstance(server.url, vnfdId);
      await fault('server.create', 'fail');
      const failed = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(failed.operationState, 'FAILED_TEMP');
      const res = await task(failed.id, 'fail');
      assert.equal(res.status, 200);
      const body = res.body as OpOcc;
      assert.equal(body.operationState, 'FAILED');
      assert.equal(body.id, failed.id);
      assert.ok(body.error);
      assert.deepEqual(Object.keys(body._links).sort(), ['self', 'vnfInstance']);
      assert.ok(isProblem(await task(failed.id, 'fail'), 409));
      // Released: a new instantiate is accepted (its infra step cleans up what the failed one left).
      const again = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(again.operationState, 'COMPLETED', JSON.stringify(again.error));
    });

    test("an exhausted zone fails with Nova's message; retry succeeds once it is restored", async () => {
      const zones = (await http<{ name: string }[]>(server.url, 'GET', `${SIM}/zones`)).body.map(
        (z) => z.name,
      );
      for (const z of zones)
        assert.equal((await http(server.url, 'POST', `${SIM}/zones/${z}/exhaust`)).status, 200);
      const inst = await createInstance(server.url, vnfdId);
      try {
        const failed = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
        assert.equal(failed.operationState, 'FAILED_TEMP');
        assert.match(failed.error?.detail ?? '', /No valid host was found/);
        assert.equal(failed.error?.infraErrorCode, 'NO_VALID_HOST');
        for (const z of zones) await http(server.url, 'POST', `${SIM}/zones/${z}/restore`);
        assert.equal((await task(failed.id, 'retry')).status, 202);
        assert.equal((await waitOpOcc(server.url, failed.id)).operationState, 'COMPLETED');
      } finally {
        for (const z of zones) await http(server.url, 'POST', `${SIM}/zones/${z}/restore`);
      }
    });

    test('FORCEFUL cancel aborts a hung step: FAILED_TEMP with the cancel in error; then rollback', async () => {
      const inst = await createInstance(server.url, vnfdId);
      await fault('server.create', 'hang', { timeoutMs: 60000 });
      const id = await startTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      // The hang has begun when its fault is used up.
      for (let i = 0; i < 500; i++) {
        if ((await http<unknown[]>(server.url, 'GET', `${SIM}/faults`)).body.length === 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const processing = await getOpOcc(server.url, id);
      assert.equal(processing.operationState, 'PROCESSING');
      assert.ok(processing._links.cancel);
      // Busy: every operation type, DELETE and PATCH get 409 while PROCESSING.
      for (const [name, body] of busyChecks(vnfdId)) {
        const res = await http(server.url, 'POST', `${V2}/vnf_instances/${inst.id}/${name}`, {
          headers: H,
          body,
        });
        assert.ok(isProblem(res, 409), `${name}: ${res.status}`);
        assert.match((res.body as { detail: string }).detail, /is busy: INSTANTIATE .* is PROCESSING/);
      }
      const patch = await http(server.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ vnfInstanceName: 'x' }),
      });
      assert.ok(isProblem(patch, 409));
      assert.ok(
        isProblem(await http(server.url, 'DELETE', `${V2}/vnf_instances/${inst.id}`, { headers: H }), 409),
      );
      assert.ok(isProblem(await task(id, 'retry'), 409));
      assert.ok(isProblem(await task(id, 'cancel', {}), 400));
      const started = Date.now();
      assert.equal((await task(id, 'cancel', { cancelMode: 'FORCEFUL' })).status, 202);
      assert.ok(isProblem(await task(id, 'cancel', { cancelMode: 'FORCEFUL' }), 409));
      const cancelled = await waitOpOcc(server.url, id);
      assert.ok(Date.now() - started < 10000);
      assert.equal(cancelled.operationState, 'FAILED_TEMP');
      assert.equal(cancelled.isCancelPending, false);
      assert.equal(cancelled.cancelMode, 'FORCEFUL');
      assert.match(cancelled.error?.detail ?? '', /cancelled \(FORCEFUL\)/);
      assert.equal((await task(id, 'rollback')).status, 202);
      assert.equal((await waitOpOcc(server.url, id)).operationState, 'ROLLED_BACK');
      assert.equal((await servers(inst.id)).length, 0);
    });

    test('two operations at once on one instance: exactly one is accepted', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2 === 0
            ? http(server.url, 'POST', `${V2}/vnf_instances/${inst.id}/instantiate`, {
                headers: H,
                body: INSTANTIATE,
              })
            : http(server.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
                headers: { ...H, 'content-type': 'application/merge-patch+json' },
                body: JSON.stringify({ vnfInstanceName: `n${i}` }),
              }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      assert.equal(statuses.filter((s) => s === 202).length, 1, JSON.stringify(statuses));
      assert.equal(statuses.filter((s) => s === 409).length, 7);
      const accepted = results.find((r) => r.status === 202);
      const id = (accepted?.headers.get('location') ?? '').split('/').pop() as string;
      assert.equal((await waitOpOcc(server.url, id)).operationState, 'COMPLETED');
    });
  });
}

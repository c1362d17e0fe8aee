/**
 * /vnflcm/v1 when operations fail on the simulated VIM (faults injected through the sim admin
 * API), on SQLite and PostgreSQL: FAILED_TEMP with the VIM's message, then retry (completes, no
 * duplicate resources), rollback (exactly what the op occ added is removed) or fail (FAILED, 200
 * with the op occ, instance released); a rollback the operation cannot have is refused at once
 * with 409, as Tacker's v1 API does; the op occ tasks' state rules (409). Every op occ shown is
 * checked against the ETSI v2.6.1 schemas.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { INSTANTIATE, onboardOnce } from './lcm-support.ts';
import { assertOpOccV1 } from './v1-schemas.ts';
import {
  createInstanceV1,
  getInstanceV1,
  getOpOccV1,
  H1,
  type OpOccV1,
  runTaskV1,
  V1,
  waitOpOccV1,
} from './v1-support.ts';

const SIM = '/bosun/v1/sim';

for (const dialect of DIALECTS) {
  describe(`/vnflcm/v1 failures, retry, rollback and fail (${dialect})`, () => {
    let server: TestServer;
    let vnfdId: string;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 } },
      });
      vnfdId = (await onboardOnce(server.url)).vnfdId as string;
    });
    after(() => server.close());

    const fault = async (kind: string, extra: Record<string, unknown> = {}) => {
      const res = await http(server.url, 'POST', `${SIM}/faults`, {
        body: { kind, action: 'fail', ...extra },
      });
      assert.equal(res.status, 201, res.text);
    };
    const servers = async (instanceId: string) =>
      (await http<{ id: string }[]>(server.url, 'GET', `${SIM}/servers?instanceId=${instanceId}`)).body;
    const task = (opOccId: string, name: string) =>
      http(server.url, 'POST', `${V1}/vnf_lcm_op_occs/${opOccId}/${name}`, { headers: H1 });
    const failedTemp = async (instanceId: string, name: string, body: Record<string, unknown>) => {
      const op = await runTaskV1(server.url, instanceId, name, body);
      assertOpOccV1(op, `${name} FAILED_TEMP op occ`);
      assert.equal(op.operationState, 'FAILED_TEMP', JSON.stringify(op));
      return op;
    };
    const ended = async (id: string, state: string) => {
      const op = await waitOpOccV1(server.url, id);
      assertOpOccV1(op, `${state} op occ`);
      assert.equal(op.operationState, state, JSON.stringify(op.error));
      return op;
    };
    const instantiated = async () => {
      const inst = await createInstanceV1(server.url, vnfdId);
      assert.equal(
        (await runTaskV1(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      return inst;
    };

    test('a failed instantiate is FAILED_TEMP with the VIM message; retry completes it without duplicates', async () => {
      const inst = await createInstanceV1(server.url, vnfdId);
      await fault('server.create', { message: 'Simulated compute failure' });
      const failed = await failedTemp(inst.id, 'instantiate', INSTANTIATE);
      assert.equal(failed.error?.detail, 'Simulated compute failure');
      assert.deepEqual(Object.keys(failed._links).sort(), [
        'fail',
        'retry',
        'rollback',
        'self',
        'vnfInstance',
      ]);
      assert.match(failed._links.retry.href, new RegExp(`/vnflcm/v1/vnf_lcm_op_occs/${failed.id}/retry$`));
      // The instance is held while FAILED_TEMP.
      const refused = await http(server.url, 'POST', `${V1}/vnf_instances/${inst.id}/instantiate`, {
        headers: H1,
        body: INSTANTIATE,
      });
      assert.ok(isProblem(refused, 409));
      assert.match((refused.body as { detail: string }).detail, /FAILED_TEMP operation, INSTANTIATE/);
      // The Tacker client sends retry with no body and no Content-Type.
      const retry = await task(failed.id, 'retry');
      assert.equal(retry.status, 202, retry.text);
      const done = await ended(failed.id, 'COMPLETED');
      assert.equal(done.error, undefined);
      for (const t of ['retry', 'rollback', 'fail']) assert.ok(isProblem(await task(failed.id, t), 409), t);
      const now = await getInstanceV1(server.url, inst.id);
      assert.equal(now.instantiationState, 'INSTANTIATED');
      assert.equal(now.instantiatedVnfInfo?.vnfcResourceInfo?.length, 2);
      assert.equal((await servers(inst.id)).length, 2);
    });

    test('rollback of a failed scale out removes exactly what it added', async () => {
      const inst = await instantiated();
      const before = (await servers(inst.id)).map((s) => s.id).sort();
      await fault('server.create', { message: 'boom' });
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
      const now = await getInstanceV1(server.url, inst.id);
      assert.deepEqual(now.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'VDU1_scale', scaleLevel: 0 }]);
      // And a rolled-back instantiate leaves nothing behind.
      const fresh = await createInstanceV1(server.url, vnfdId);
      await fault('volume.create');
      const inst2 = await failedTemp(fresh.id, 'instantiate', INSTANTIATE);
      assert.equal((await task(inst2.id, 'rollback')).status, 202);
      await ended(inst2.id, 'ROLLED_BACK');
      assert.equal((await servers(fresh.id)).length, 0);
      assert.equal((await getInstanceV1(server.url, fresh.id)).instantiationState, 'NOT_INSTANTIATED');
    });

    test('a rollback the operation cannot have is refused with 409 (Tacker v1); retry still works', async () => {
      const inst = await instantiated();
      assert.equal(
        (await runTaskV1(server.url, inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }))
          .operationState,
        'COMPLETED',
      );
      await fault('server.delete');
      const scaleIn = await failedTemp(inst.id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
      assert.equal(scaleIn._links.rollback, undefined);
      const refused = await task(scaleIn.id, 'rollback');
      assert.ok(isProblem(refused, 409));
      assert.match((refused.body as { detail: string }).detail, /Rollback of SCALE is not supported/);
      assert.equal((await getOpOccV1(server.url, scaleIn.id)).operationState, 'FAILED_TEMP');
      assert.equal((await task(scaleIn.id, 'retry')).status, 202);
      await ended(scaleIn.id, 'COMPLETED');
      // HEAL (SOL002, one VNFC).
      const vnfc = (await getInstanceV1(server.url, inst.id)).instantiatedVnfInfo?.vnfcResourceInfo?.[0];
      assert.ok(vnfc);
      await fault('server.rebuild');
      await fault('server.create');
      const heal = await failedTemp(inst.id, 'heal', { vnfcInstanceId: [vnfc.id] });
      assert.ok(isProblem(await task(heal.id, 'rollback'), 409));
      await http(server.url, 'DELETE', `${SIM}/faults`);
      assert.equal((await task(heal.id, 'retry')).status, 202);
      await ended(heal.id, 'COMPLETED');
      // TERMINATE
      await fault('server.delete');
      const term = await failedTemp(inst.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.ok(isProblem(await task(term.id, 'rollback'), 409));
      assert.equal((await task(term.id, 'retry')).status, 202);
      await ended(term.id, 'COMPLETED');
      assert.equal((await servers(inst.id)).length, 0);
    });

    test('fail: FAILED_TEMP → FAILED at once (200 with the v2.6.1 op occ); the instance is released', async () => {
      const inst = await createInstanceV1(server.url, vnfdId);
      await fault('server.create');
      const failed = await failedTemp(inst.id, 'instantiate', INSTANTIATE);
      const res = await task(failed.id, 'fail');
      assert.equal(res.status, 200, res.text);
      const body = res.body as OpOccV1;
      assertOpOccV1(body, 'FAILED op occ');
      assert.equal(body.operationState, 'FAILED');
      assert.equal(body.id, failed.id);
      assert.ok(body.error);
      assert.deepEqual(Object.keys(body._links).sort(), ['self', 'vnfInstance']);
      assert.ok(isProblem(await task(failed.id, 'fail'), 409));
      assert.ok(isProblem(await task(failed.id, 'retry'), 409));
      // Released: a new instantiate is accepted and completes.
      const again = await runTaskV1(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(again.operationState, 'COMPLETED', JSON.stringify(again.error));
      // Tasks on unknown op occs: 404.
      assert.ok(isProblem(await task('6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11', 'retry'), 404));
    });
  });
}

/**
 * Deleting a VIM while an instantiate starts using it, on SQLite and PostgreSQL: the delete and the
 * grant step recording the resolved VIM are mutually exclusive, so every round ends either with the
 * VIM deleted and the operation ROLLED_BACK (its error naming the VIM), or with the delete refused
 * (409) and the instance INSTANTIATED on the VIM — never with an instance or op occ referring to a
 * deleted VIM. An operation queued before the delete fails at its grant step with the same clear
 * error; so does a PATCH naming a VIM that is not registered (one that is gets the delete refused).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SIM_VIM_TYPE } from '../../../src/vims/drivers/sim/config.ts';
import type { VimRecord } from '../../../src/vims/registry.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { idOf } from '../vnflcm/lcm-client.ts';
import { lcmServer, SIM, simFault, simServers } from '../vnflcm/lcm-server.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  type OpOcc,
  startTask,
  V2,
  waitOpOcc,
} from '../vnflcm/lcm-support.ts';

const BASE = '/bosun/v1/vims';
/** When the delete is sent after the instantiate (negative: before), one round each. */
const LAGS_MS = [-2, 0, 2, 4, 7, 10, 14, 18, 24, 32, 45, 60];
const ROUNDS = LAGS_MS.length;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function registerSim(url: string, name: string): Promise<string> {
  const made = await http<VimRecord>(url, 'POST', BASE, {
    body: { name, vimType: SIM_VIM_TYPE, projectId: 'default' },
  });
  assert.equal(made.status, 201, made.text);
  return made.body.id;
}

const on = (vimId: string) => ({ vimConnectionInfo: { vim1: { vimId, vimType: SIM_VIM_TYPE } } });

/** The outcome of an operation whose VIM was deleted before it could record it. */
async function assertVanished(url: string, op: OpOcc, instanceId: string, vimId: string) {
  assert.equal(op.operationState, 'ROLLED_BACK', JSON.stringify(op.error));
  assert.equal(op.error?.status, 422);
  assert.equal(op.error?.step, 'grant');
  assert.match(op.error?.detail ?? '', new RegExp(`VIM ${vimId} \\(vimConnectionInfo vim1\\)`));
  assert.equal(op.error?.vimId, vimId);
  assert.equal((await getInstance(url, instanceId)).instantiationState, 'NOT_INSTANTIATED');
  assert.deepEqual(await simServers(url, instanceId), [], 'nothing was created for it');
}

for (const dialect of DIALECTS) {
  describe(`VIM deletion against operations starting on it (${dialect})`, () => {
    const server = lcmServer(dialect, { lcm: { concurrency: 1 } });

    test(`${ROUNDS} rounds of delete racing instantiate: never an instance or op occ on a deleted VIM`, async () => {
      const outcomes = { deleted: 0, refused: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const vimId = await registerSim(server.url, `race-${round}`);
        const inst = await createInstance(server.url, server.vnfdId);
        // The delete lands at a different moment of the operation each round: before it starts,
        // during its grant step, after it recorded the VIM.
        const lag = LAGS_MS[round];
        const [opId, deleted] = await Promise.all([
          sleep(Math.max(0, -lag)).then(() =>
            startTask(server.url, inst.id, 'instantiate', { ...INSTANTIATE, ...on(vimId) }),
          ),
          sleep(Math.max(0, lag)).then(() => http(server.url, 'DELETE', `${BASE}/${vimId}`)),
        ]);
        const op = await waitOpOcc(server.url, opId);
        const vimThere = (await http(server.url, 'GET', `${BASE}/${vimId}`)).status === 200;
        if (deleted.status === 204) {
          outcomes.deleted++;
          assert.equal(vimThere, false);
          await assertVanished(server.url, op, inst.id, vimId);
        } else {
          outcomes.refused++;
          assert.equal(deleted.status, 409, deleted.text);
          assert.equal(vimThere, true);
          assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
          const now = await getInstance(server.url, inst.id);
          assert.equal(now.instantiationState, 'INSTANTIATED');
          assert.equal(now.vimConnectionInfo?.vim1?.vimId, vimId);
        }
      }
      assert.equal(outcomes.deleted + outcomes.refused, ROUNDS);
    });

    test('an operation queued when its VIM is deleted fails at the grant with an error naming the VIM', async () => {
      // The only worker slot is taken by an instantiate hanging at the VIM, so the next one waits queued.
      await simFault(server.url, 'server.create', 'hang', { timeoutMs: 1500 });
      const blocker = await createInstance(server.url, server.vnfdId);
      const blockerOp = await startTask(server.url, blocker.id, 'instantiate', INSTANTIATE);
      await waitOpOcc(server.url, blockerOp, ['PROCESSING']);

      const vimId = await registerSim(server.url, 'vanishing');
      const inst = await createInstance(server.url, server.vnfdId);
      const opId = await startTask(server.url, inst.id, 'instantiate', { ...INSTANTIATE, ...on(vimId) });
      assert.equal(
        (await http(server.url, 'DELETE', `${BASE}/${vimId}`)).status,
        204,
        'no grant recorded it yet',
      );

      assert.equal((await waitOpOcc(server.url, blockerOp)).operationState, 'FAILED_TEMP');
      await assertVanished(server.url, await waitOpOcc(server.url, opId), inst.id, vimId);
      await http(server.url, 'DELETE', `${SIM}/faults`);
      const failed = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${blockerOp}/fail`, {
        headers: H,
      });
      assert.equal(failed.status, 200, failed.text);
    });

    test('a PATCH adding a VIM to an instance records it only while it is registered', async () => {
      const inst = await createInstance(server.url, server.vnfdId);
      assert.equal(
        (await waitOpOcc(server.url, await startTask(server.url, inst.id, 'instantiate', INSTANTIATE)))
          .operationState,
        'COMPLETED',
      );
      const patch = async (vimId: string) => {
        const res = await http(server.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
          headers: { ...H, 'content-type': 'application/merge-patch+json' },
          body: JSON.stringify({ vimConnectionInfo: { extra: { vimId, vimType: SIM_VIM_TYPE } } }),
        });
        assert.equal(res.status, 202, res.text);
        return waitOpOcc(server.url, idOf(res.headers.get('location')));
      };
      const vimId = await registerSim(server.url, 'added-later');
      assert.equal((await patch(vimId)).operationState, 'COMPLETED');
      assert.equal(
        (await http(server.url, 'DELETE', `${BASE}/${vimId}`)).status,
        409,
        'the instance uses it now',
      );

      const gone = '5f0c6c1e-0000-4000-8000-00000000dead';
      const refused = await patch(gone);
      assert.equal(refused.operationState, 'FAILED_TEMP');
      assert.equal(refused.error?.status, 422);
      assert.match(
        refused.error?.detail ?? '',
        new RegExp(`VIM ${gone} \\(vimConnectionInfo extra\\) is not registered`),
      );
      assert.equal(
        (await getInstance(server.url, inst.id)).vimConnectionInfo?.extra?.vimId,
        vimId,
        'unchanged',
      );
      const rollback = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${refused.id}/rollback`, {
        headers: H,
      });
      assert.equal(rollback.status, 202, rollback.text);
      assert.equal((await waitOpOcc(server.url, refused.id)).operationState, 'ROLLED_BACK');
    });
  });
}

/**
 * Scale to level with several scaling aspects, over real HTTP on SQLite and PostgreSQL: an
 * instantiation level or a scaleInfo that moves two aspects (both out, or one in and one out)
 * changes both in one operation — the grant asks for every VNFC, the simulated VIM holds them,
 * resourceChanges list them and scaleStatus shows every aspect — and a rollback removes what
 * both aspects added.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GrantRequest } from '../../src/grant/types.ts';
import { LCM_V2 } from '../../src/lcm/store.ts';
import { lcmServer } from '../http/vnflcm/lcm-server.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  type Instance,
  type OpOcc,
  runTask,
  V2,
  waitOpOcc,
} from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { twoAspectsPackage } from './two-aspects.ts';

const SIM = '/bosun/v1/sim';

const levels = (i: Instance) =>
  Object.fromEntries((i.instantiatedVnfInfo?.scaleStatus ?? []).map((s) => [s.aspectId, s.scaleLevel]));
const counts = (i: Instance) => {
  const out: Record<string, number> = {};
  for (const v of i.instantiatedVnfInfo?.vnfcResourceInfo ?? []) out[v.vduId] = (out[v.vduId] ?? 0) + 1;
  return out;
};
/** [vduId, changeType] of every affected VNFC, sorted. */
const vnfcChanges = (op: OpOcc) =>
  (op.resourceChanges?.affectedVnfcs ?? []).map((v) => `${v.vduId} ${v.changeType}`).sort();

for (const dialect of DIALECTS) {
  describe(`scale to level with several aspects (${dialect})`, () => {
    const lcm = lcmServer(dialect, {}, twoAspectsPackage);

    async function instantiated(): Promise<Instance> {
      const instance = await createInstance(lcm.url, lcm.vnfdId);
      const op = await runTask(lcm.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const shown = await getInstance(lcm.url, instance.id);
      assert.deepEqual(levels(shown), { VDU1_scale: 0, VDU2_scale: 0 });
      assert.deepEqual(counts(shown), { VDU1: 1, VDU2: 1 });
      return shown;
    }

    const servers = async (instanceId: string) =>
      (await http<{ vduId: string }[]>(lcm.url, 'GET', `${SIM}/servers?instanceId=${instanceId}`)).body;

    test('an instantiation level moving both aspects out scales both, granted and reported', async () => {
      const instance = await instantiated();
      const op = await runTask(lcm.url, instance.id, 'scale_to_level', {
        instantiationLevelId: 'instantiation_level_2',
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      assert.deepEqual(vnfcChanges(op), ['VDU1 ADDED', 'VDU1 ADDED', 'VDU2 ADDED', 'VDU2 ADDED']);
      const after = await getInstance(lcm.url, instance.id);
      assert.deepEqual(levels(after), { VDU1_scale: 2, VDU2_scale: 2 });
      assert.deepEqual(counts(after), { VDU1: 3, VDU2: 3 });
      assert.equal((await servers(instance.id)).length, 6);
      // The grant asked for every new VNFC of both aspects, and named the level.
      const work = await LCM_V2.findOpOccWork(lcm.server.context.db.kysely, op.id);
      const request = work?.grantRequest as GrantRequest;
      assert.equal(request.instantiationLevelId, 'instantiation_level_2');
      assert.deepEqual(
        request.addResources
          ?.filter((r) => r.type === 'COMPUTE')
          .map((r) => r.vduId)
          .sort(),
        ['VDU1', 'VDU1', 'VDU2', 'VDU2'],
      );
    });

    test('scaleInfo moving one aspect in and another out does both in one operation', async () => {
      const instance = await instantiated();
      const up = await runTask(lcm.url, instance.id, 'scale_to_level', {
        scaleInfo: [{ aspectId: 'VDU1_scale', scaleLevel: 2 }],
      });
      assert.deepEqual(vnfcChanges(up), ['VDU1 ADDED', 'VDU1 ADDED']);
      const before = await getInstance(lcm.url, instance.id);
      const newest = (before.instantiatedVnfInfo?.vnfcResourceInfo ?? [])
        .filter((v) => v.vduId === 'VDU1')
        .slice(0, 2)
        .map((v) => v.id);
      const op = await runTask(lcm.url, instance.id, 'scale_to_level', {
        scaleInfo: [
          { aspectId: 'VDU1_scale', scaleLevel: 0 },
          { aspectId: 'VDU2_scale', scaleLevel: 2 },
        ],
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      assert.deepEqual(vnfcChanges(op), ['VDU1 REMOVED', 'VDU1 REMOVED', 'VDU2 ADDED', 'VDU2 ADDED']);
      assert.deepEqual(
        op.resourceChanges?.affectedVnfcs
          .filter((v) => v.changeType === 'REMOVED')
          .map((v) => v.id)
          .sort(),
        [...newest].sort(),
        'the newest VDU1s go',
      );
      const after = await getInstance(lcm.url, instance.id);
      assert.deepEqual(levels(after), { VDU1_scale: 0, VDU2_scale: 2 });
      assert.deepEqual(counts(after), { VDU1: 1, VDU2: 3 });
      const held = (await servers(instance.id)).map((s) => s.vduId).sort();
      assert.deepEqual(held, ['VDU1', 'VDU2', 'VDU2', 'VDU2']);
    });

    test('a failed scale of both aspects rolls back what both added', async () => {
      const instance = await instantiated();
      const before = (await servers(instance.id)).length;
      // The stack update comes last: every new VNFC of both aspects exists when it fails.
      const fault = await http(lcm.url, 'POST', `${SIM}/faults`, {
        body: { kind: 'stack.update', action: 'fail', message: 'Simulated Heat failure' },
      });
      assert.equal(fault.status, 201, fault.text);
      const failed = await runTask(lcm.url, instance.id, 'scale_to_level', {
        instantiationLevelId: 'instantiation_level_2',
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.match(failed.error?.detail ?? '', /Simulated Heat failure/);
      assert.deepEqual((await servers(instance.id)).map((s) => s.vduId).sort(), [
        'VDU1',
        'VDU1',
        'VDU1',
        'VDU2',
        'VDU2',
        'VDU2',
      ]);
      const rollback = await http(lcm.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, {
        headers: H,
      });
      assert.equal(rollback.status, 202, rollback.text);
      const done = await waitOpOcc(lcm.url, failed.id);
      assert.equal(done.operationState, 'ROLLED_BACK', JSON.stringify(done.error));
      assert.equal((await servers(instance.id)).length, before);
      const after = await getInstance(lcm.url, instance.id);
      assert.deepEqual(levels(after), { VDU1_scale: 0, VDU2_scale: 0 });
      assert.deepEqual(counts(after), { VDU1: 1, VDU2: 1 });
    });
  });
}

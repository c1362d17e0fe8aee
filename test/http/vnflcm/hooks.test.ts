/**
 * Management-driver hooks with real scripts, in a variant of a Tacker sample whose Vnflcm
 * operations run a Python script: the hooks run in order around the infra work with the request,
 * instance, grant and VNFD on stdin, their answer merges into the instance; a failing hook, one
 * that times out or answers garbage fails the operation (FAILED_TEMP) with its output in `error`;
 * retry re-runs it; rollback runs the rollback hooks around the compensation; GRACEFUL cancel
 * stops at the step boundary after a slow hook, FORCEFUL kills it; a failed MODIFY_INFO rolls back
 * to the instance as it was.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HookInput } from '../../../src/drivers/mgmt/hook-contract.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { onboard } from '../vnfpkgm/support.ts';
import { type HookPeer, hookPackage, startHookPeer } from './hook-package.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  type Instance,
  runTask,
  startTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';

/** What the test reads of a hook's input (hook-contract.ts HookInput). */
type HookInputSeen = Pick<
  HookInput,
  | 'contractVersion'
  | 'lcmOperation'
  | 'vnfLcmOpOccId'
  | 'resourceChanges'
  | 'startHookOutput'
  | 'vimConnectionInfo'
> & { vnfInstance: Instance & { metadata: Record<string, unknown> } };

for (const dialect of DIALECTS) {
  describe(`management-driver hooks (${dialect})`, () => {
    let server: TestServer;
    let vnfdId: string;
    let peer: HookPeer;
    before(async () => {
      server = await startTestServer(dialect, {
        config: {
          worker: { pollIntervalMs: 50 },
          sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 },
          lcm: { hookTimeoutMs: 3000 },
        },
      });
      const variant = await hookPackage();
      const pkg = await onboard(server.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      vnfdId = variant.vnfdId;
      peer = await startHookPeer();
    });
    after(async () => {
      await server.close();
      await peer.close();
    });

    /** What ran under `key`: hook name and whether it had the grant. */
    const logOf = (key: string) => peer.calls(key).map((c) => `${c.op} ${c.grant ? 'grant' : 'nogrant'}`);
    const params = (key: string, more: object = {}) => ({ key, peer: peer.url, ...more });
    const servers = async (instanceId: string) =>
      (await http<unknown[]>(server.url, 'GET', `/bosun/v1/sim/servers?instanceId=${instanceId}`)).body
        .length;
    const opTask = (id: string, name: string, body?: object) =>
      http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/${name}`, {
        headers: H,
        ...(body ? { body } : {}),
      });

    test('hooks run around the infra work with the grant; their answer merges into the instance', async () => {
      const log = 'ok';
      const inst = await createInstance(server.url, vnfdId);
      const op = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: params(log),
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      assert.deepEqual(logOf(log), ['instantiate_start grant', 'instantiate_end grant']);
      const now = await getInstance(server.url, inst.id);
      assert.equal(now.metadata?.hook_instantiate_start, `simple/${inst.id}`);
      assert.equal(now.metadata?.hook_instantiate_end, `simple/${inst.id}`);
      const term = await runTask(server.url, inst.id, 'terminate', {
        terminationType: 'FORCEFUL',
        additionalParams: params(log),
      });
      assert.equal(term.operationState, 'COMPLETED');
      assert.deepEqual(logOf(log).slice(2), ['terminate_start grant', 'terminate_end grant']);
    });

    test('a failing start hook: FAILED_TEMP with its stderr, nothing built; retry re-runs it', async () => {
      const log = 'fail';
      const inst = await createInstance(server.url, vnfdId);
      const failed = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: params(log, { failHooks: ['instantiate_start'] }),
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.status, 422);
      assert.equal(failed.error?.title, 'Mgmt driver execution failed');
      assert.equal(failed.error?.step, 'start-hook');
      assert.equal(failed.error?.exitCode, 3);
      assert.match(
        failed.error?.detail ?? '',
        /instantiate_start \(Scripts\/sample_script\.py\) exited with code 3: hook instantiate_start failed on purpose/,
      );
      assert.equal(await servers(inst.id), 0);
      peer.fix(log);
      assert.equal((await opTask(failed.id, 'retry')).status, 202);
      const done = await waitOpOcc(server.url, failed.id);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      assert.deepEqual(logOf(log), [
        'instantiate_start grant',
        'instantiate_start grant',
        'instantiate_end grant',
      ]);
      assert.equal(await servers(inst.id), 2);
    });

    test('a failing end hook, then rollback: the rollback hooks run around the removal', async () => {
      const log = 'rollback';
      const inst = await createInstance(server.url, vnfdId);
      const failed = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: params(log, { failHooks: ['instantiate_end'] }),
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.step, 'end-hook');
      assert.equal(await servers(inst.id), 2);
      assert.equal((await opTask(failed.id, 'rollback')).status, 202);
      const rolled = await waitOpOcc(server.url, failed.id);
      assert.equal(rolled.operationState, 'ROLLED_BACK', JSON.stringify(rolled.error));
      assert.equal(await servers(inst.id), 0);
      assert.deepEqual(logOf(log), [
        'instantiate_start grant',
        'instantiate_end grant',
        'instantiate_rollback_start grant',
        'instantiate_rollback_end grant',
      ]);
      assert.equal((await getInstance(server.url, inst.id)).instantiationState, 'NOT_INSTANTIATED');
      // _rollback_start sees what the failed operation built, _rollback_end what the rollback removed.
      const [, , start, end] = peer.calls(log) as { input: HookInputSeen }[];
      const vnfcs = (c: { input: HookInputSeen }) =>
        c.input.resourceChanges?.affectedVnfcs.map((v) => `${v.id} ${v.changeType}`).sort();
      const built =
        start.input.vnfInstance.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.id).sort() ?? [];
      assert.equal(start.input.vnfInstance.instantiationState, 'INSTANTIATED');
      assert.equal(built.length, 2);
      assert.deepEqual(
        vnfcs(start),
        built.map((id) => `${id} ADDED`),
      );
      assert.equal(end.input.vnfInstance.instantiationState, 'NOT_INSTANTIATED');
      assert.deepEqual(
        vnfcs(end),
        built.map((id) => `${id} REMOVED`),
      );
    });

    test('a hook that times out or answers garbage fails the operation', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const slow = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: { sleepHooks: ['instantiate_start'], sleepSeconds: 30 },
      });
      assert.equal(slow.operationState, 'FAILED_TEMP');
      assert.match(slow.error?.detail ?? '', /instantiate_start .* timed out after 3000 ms/);
      assert.equal((await opTask(slow.id, 'fail')).status, 200);
      const garbage = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: { badOutput: 'instantiate_end' },
      });
      assert.equal(garbage.operationState, 'FAILED_TEMP');
      assert.match(garbage.error?.detail ?? '', /answered something that is not a JSON object/);
      assert.equal(garbage.error?.stdout, 'this is not JSON\n');
    });

    test('GRACEFUL cancel takes effect after the running hook; FORCEFUL kills it', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const id = await startTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: { sleepHooks: ['instantiate_start'], sleepSeconds: 1 },
      });
      await waitOpOcc(server.url, id, ['PROCESSING']);
      assert.equal((await opTask(id, 'cancel', { cancelMode: 'GRACEFUL' })).status, 202);
      const pending = (
        await http<{ isCancelPending: boolean }>(server.url, 'GET', `${V2}/vnf_lcm_op_occs/${id}`, {
          headers: H,
        })
      ).body;
      assert.equal(pending.isCancelPending, true);
      const cancelled = await waitOpOcc(server.url, id);
      assert.equal(cancelled.operationState, 'FAILED_TEMP');
      assert.equal(cancelled.error?.step, 'infra');
      assert.match(cancelled.error?.detail ?? '', /cancelled \(GRACEFUL\)/);
      assert.equal(await servers(inst.id), 0);
      assert.equal((await opTask(id, 'rollback')).status, 202);
      assert.equal((await waitOpOcc(server.url, id)).operationState, 'ROLLED_BACK');

      const id2 = await startTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: { sleepHooks: ['instantiate_start'], sleepSeconds: 20 },
      });
      await waitOpOcc(server.url, id2, ['PROCESSING']);
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      assert.equal((await opTask(id2, 'cancel', { cancelMode: 'FORCEFUL' })).status, 202);
      const killed = await waitOpOcc(server.url, id2);
      assert.ok(Date.now() - started < 2500);
      assert.equal(killed.operationState, 'FAILED_TEMP');
      assert.equal(killed.error?.step, 'start-hook');
      assert.match(killed.error?.detail ?? '', /cancelled/);
    });

    test('the contract: _start hooks see the instance before the VIM work, _end hooks after it', async () => {
      const key = 'contract';
      const startAnswer = {
        vnfInstance: {
          metadata: { phase: 'start' },
          extensions: { cluster: 'c1' },
          vnfConfigurableProperties: { isAutoscaleEnabled: true },
        },
      };
      const inst = await createInstance(server.url, vnfdId);
      const op = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: params(key, { answers: { instantiate_start: startAnswer } }),
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const now = await getInstance(server.url, inst.id);
      const vnfcIds = (now.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.id).sort();
      assert.equal(vnfcIds.length, 2);
      const [start, end] = peer.calls(key) as { op: string; input: HookInputSeen; env: object }[];
      assert.equal(start.op, 'instantiate_start');
      assert.equal(start.input.contractVersion, '1.0');
      assert.equal(start.input.lcmOperation, 'INSTANTIATE');
      assert.equal(start.input.vnfLcmOpOccId, op.id);
      assert.equal(start.input.vnfInstance.instantiationState, 'NOT_INSTANTIATED');
      assert.equal(start.input.resourceChanges, undefined);
      assert.deepEqual(Object.keys(start.env).sort(), [
        'BOSUN_HOOK',
        'BOSUN_HOOK_CONTRACT_VERSION',
        'BOSUN_HOOK_DIR',
        'HOME',
        'LANG',
        'PATH',
        'PWD',
        'TMPDIR',
      ]);
      const vims = Object.values(start.input.vimConnectionInfo);
      assert.equal(vims.length, 1);
      assert.equal(vims[0].vimType, 'BOSUN.SIM.V1');
      assert.equal(vims[0].accessInfo, undefined);
      assert.equal(end.op, 'instantiate_end');
      assert.equal(end.input.vnfInstance.instantiationState, 'INSTANTIATED');
      assert.deepEqual(
        end.input.vnfInstance.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.id).sort(),
        vnfcIds,
      );
      assert.deepEqual(
        end.input.resourceChanges?.affectedVnfcs.map((v) => `${v.id} ${v.changeType}`).sort(),
        vnfcIds.map((id) => `${id} ADDED`),
      );
      assert.deepEqual(end.input.startHookOutput, startAnswer);
      assert.equal(end.input.vnfInstance.metadata.phase, 'start');
      assert.equal(now.metadata?.phase, 'start');
      assert.equal(now.extensions?.cluster, 'c1');
      assert.equal(now.vnfConfigurableProperties?.isAutoscaleEnabled, true);
    });

    test('hooks write VNFC metadata; it outlives later operations and heal_end sees the new server', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const hostname = { vnfcResourceInfo: [{ id: '$VNFC0', metadata: { hostname: 'node-0' } }] };
      const op = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: params('vnfc', { answers: { instantiate_end: hostname } }),
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const vnfcOf = async () => {
        const info = (await getInstance(server.url, inst.id)).instantiatedVnfInfo;
        const named = info?.vnfcResourceInfo?.find((v) => v.metadata?.hostname === 'node-0');
        assert.ok(named, JSON.stringify(info?.vnfcResourceInfo));
        return { vnfc: named, info };
      };
      const first = await vnfcOf();
      assert.ok(first.vnfc.metadata?.host, 'the driver keys stay');
      const scaled = await runTask(server.url, inst.id, 'scale', {
        type: 'SCALE_OUT',
        aspectId: 'VDU1_scale',
        numberOfSteps: 1,
      });
      assert.equal(scaled.operationState, 'COMPLETED', JSON.stringify(scaled.error));
      assert.equal((await vnfcOf()).vnfc.id, first.vnfc.id);
      const vnfcInfo = first.info?.vnfcInfo?.find((c) => c.vnfcResourceInfoId === first.vnfc.id);
      const healed = await runTask(server.url, inst.id, 'heal', {
        vnfcInstanceId: [vnfcInfo?.id],
        additionalParams: params('heal'),
      });
      assert.equal(healed.operationState, 'COMPLETED', JSON.stringify(healed.error));
      const [healEnd] = peer.calls('heal') as { op: string; input: HookInputSeen }[];
      assert.equal(healEnd.op, 'heal_end');
      const seen = healEnd.input.vnfInstance.instantiatedVnfInfo?.vnfcResourceInfo?.find(
        (v) => v.id === first.vnfc.id,
      );
      assert.notEqual(seen?.computeResource.resourceId, first.vnfc.computeResource.resourceId);
      assert.equal(seen?.metadata?.hostname, 'node-0');
      assert.equal((await vnfcOf()).vnfc.computeResource.resourceId, seen?.computeResource.resourceId);
    });

    test('a retried end hook sees the instance as the VIM work left it, as the first run did', async () => {
      const key = 'end-retry';
      const inst = await createInstance(server.url, vnfdId);
      const failed = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: params(key, { failHooks: ['instantiate_end'] }),
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.step, 'end-hook');
      peer.fix(key);
      assert.equal((await opTask(failed.id, 'retry')).status, 202);
      const done = await waitOpOcc(server.url, failed.id);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      const vnfcIds = ((await getInstance(server.url, inst.id)).instantiatedVnfInfo?.vnfcResourceInfo ?? [])
        .map((v) => v.id)
        .sort();
      const ends = (peer.calls(key) as { op: string; input: HookInputSeen }[]).filter(
        (c) => c.op === 'instantiate_end',
      );
      assert.equal(ends.length, 2);
      for (const end of ends) {
        assert.equal(end.input.vnfInstance.instantiationState, 'INSTANTIATED');
        assert.deepEqual(
          end.input.vnfInstance.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.id).sort(),
          vnfcIds,
        );
      }
    });

    test('an answer naming an unknown VNFC, or a VNFC key the VIM driver owns, fails the hook', async () => {
      const unknown = await runTask(
        server.url,
        (await createInstance(server.url, vnfdId)).id,
        'instantiate',
        {
          ...INSTANTIATE,
          additionalParams: params('unknown', {
            answers: { instantiate_end: { vnfcResourceInfo: [{ id: 'no-such-vnfc', metadata: { a: 1 } }] } },
          }),
        },
      );
      assert.equal(unknown.operationState, 'FAILED_TEMP');
      assert.equal(unknown.error?.step, 'end-hook');
      assert.match(
        unknown.error?.detail ?? '',
        /Hook instantiate_end: its answer names VNFCs the instance does not have: no-such-vnfc \(vnfcResourceInfo ids it was given: /,
      );
      const owned = await runTask(server.url, (await createInstance(server.url, vnfdId)).id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: params('owned', {
          answers: {
            instantiate_end: { vnfcResourceInfo: [{ id: '$VNFC0', metadata: { host: 'elsewhere' } }] },
          },
        }),
      });
      assert.equal(owned.operationState, 'FAILED_TEMP');
      assert.match(owned.error?.detail ?? '', /changes VNFC metadata the VIM driver owns: host/);
    });

    test('a failed MODIFY_INFO rolls back to the instance as it was', async () => {
      const inst = await createInstance(server.url, vnfdId, { vnfInstanceName: 'before' });
      assert.equal(
        (await runTask(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      const patch = await http(server.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({
          vnfInstanceName: 'after',
          metadata: { failHooks: ['modify_information_start'] },
        }),
      });
      assert.equal(patch.status, 202);
      const id = (patch.headers.get('location') ?? '').split('/').pop() as string;
      const failed = await waitOpOcc(server.url, id);
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.ok(failed._links.rollback);
      assert.equal((await opTask(id, 'rollback')).status, 202);
      assert.equal((await waitOpOcc(server.url, id)).operationState, 'ROLLED_BACK');
      const now = await getInstance(server.url, inst.id);
      assert.equal(now.vnfInstanceName, 'before');
      assert.equal(now.metadata?.failHooks, undefined);
    });
  });
}

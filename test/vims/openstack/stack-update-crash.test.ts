/**
 * Kill -9 of `bosun serve` in the middle of a Heat stack update, on mini-openstack, with the
 * database on PostgreSQL: a scale out is PROCESSING and Heat is updating the
 * instance's stack when the server is SIGKILLed. A new server on the same database ends the op
 * occ FAILED_TEMP (the crash recovery rule: a lease that expired while PROCESSING); its retry
 * converges on the stack Heat went on updating, with no duplicate server; a second scale out
 * killed the same way and rolled back after the restart leaves nothing it made. After each step
 * the cloud holds exactly what instantiatedVnfInfo says.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { type Database, openDatabase } from '../../../src/store/db/database.ts';
import { type OpenStackClient, openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import { cloudKeyOf } from '../../../src/vims/drivers/openstack/deps.ts';
import { releaseImages } from '../../../src/vims/drivers/openstack/images.ts';
import { opOccTag, stackNameOf } from '../../../src/vims/drivers/openstack/names.ts';
import {
  createInstance,
  FINAL_STATES,
  getInstance,
  H,
  startTask,
  V2,
  waitOpOcc,
} from '../../http/vnflcm/lcm-support.ts';
import { onboard } from '../../http/vnfpkgm/support.ts';
import { http } from '../../support/http.ts';
import { miniOpenStack, OPENSTACK_VIM_TYPE } from '../../support/mini-openstack.ts';
import { kill9, newServerEnv, type Served, serveProcess, stop } from '../../support/processes.ts';
import { assertCloudMatches, removeStacks } from './cloud-view.ts';
import { ASPECT, openStackVariant, registerVim } from './server-package.ts';

/** Heat and Nova take seconds per server on a busy machine. */
const OP_TIMEOUT_MS = 300_000;

const servers = (info: InstantiatedVnfInfo | undefined) =>
  (info?.vnfcResourceInfo ?? []).map((v) => v.computeResource.resourceId).sort();

/** Starts a task and waits (minutes, on a busy cloud) for its op occ to end. */
async function runTask(base: string, id: string, task: string, body: Record<string, unknown>) {
  return waitOpOcc(base, await startTask(base, id, task, body), FINAL_STATES, OP_TIMEOUT_MS);
}

/** The instance's instantiatedVnfInfo as the API serves it. */
const infoOf = async (base: string, id: string) =>
  (await getInstance(base, id)).instantiatedVnfInfo as InstantiatedVnfInfo | undefined;

/** Starts a scale out and SIGKILLs the server once Heat is updating the stack for it. */
async function killedDuringUpdate(
  served: Served,
  client: OpenStackClient,
  instanceId: string,
): Promise<string> {
  const opId = await startTask(served.url, instanceId, 'scale', {
    type: 'SCALE_OUT',
    aspectId: ASPECT,
    numberOfSteps: 1,
  });
  for (let i = 0; i < 1200; i++) {
    const stack = await client.heat.findStack(stackNameOf(instanceId));
    if (stack?.stack_status === 'UPDATE_IN_PROGRESS' && stack.tags?.includes(opOccTag(opId))) {
      await kill9(served.child);
      return opId;
    }
    await sleep(50);
  }
  throw new Error(`Heat never updated the stack of instance ${instanceId} for op occ ${opId}`);
}

/** The op occ, after the restart, as the crash recovery rule ends it. */
async function failedByCrash(base: string, opId: string): Promise<void> {
  const op = await waitOpOcc(base, opId, FINAL_STATES, OP_TIMEOUT_MS);
  assert.equal(op.operationState, 'FAILED_TEMP', JSON.stringify(op.error));
  assert.match(
    String(op.error?.detail),
    /its lease expired .* while the operation was PROCESSING, in step infra\. Retry it/,
  );
}

async function finishes(base: string, opId: string, task: 'retry' | 'rollback', state: string) {
  const res = await http(base, 'POST', `${V2}/vnf_lcm_op_occs/${opId}/${task}`, { headers: H });
  assert.equal(res.status, 202, res.text);
  const op = await waitOpOcc(base, opId, FINAL_STATES, OP_TIMEOUT_MS);
  assert.equal(op.operationState, state, JSON.stringify(op.error));
}

// On PostgreSQL only: the subject is the driver's resumption on a real cloud; the LCM's recovery
// after a kill is the same code on both dialects, and its crash tests run on each.
{
  const dialect = 'postgres';
  describe(`kill -9 during a stack update on mini-openstack (${dialect})`, () => {
    test('scale out killed mid-update: FAILED_TEMP after restart, retry converges without duplicates, a rollback leaves nothing', {
      timeout: 900_000,
    }, async () => {
      const cloud = await miniOpenStack();
      const client = openStackClient(cloud.admin, cloud.policy);
      const env = await newServerEnv(dialect, 'bosun-os-crash-');
      const vars = { BOSUN_OUTBOUND_ALLOW: '127.0.0.1,::1,localhost', BOSUN_LOG_ACCESS_LOG: 'false' };
      const started: Served[] = [];
      const start = async () => {
        const served = await serveProcess(env, 'all', vars);
        started.push(served);
        return served;
      };
      const db: Database = openDatabase({ url: env.databaseUrl, poolSize: 1 });
      let instanceId = '';
      let terminated = false;
      let served = await start();
      try {
        const vimId = await registerVim(served.url, cloud, 'crash-vim');
        const pkg = await openStackVariant(1);
        const onboarded = await onboard(served.url, pkg.zip);
        assert.equal(
          onboarded.onboardingState,
          'ONBOARDED',
          JSON.stringify(onboarded.onboardingFailureDetails),
        );
        instanceId = (await createInstance(served.url, pkg.vnfdId)).id;
        const made = await runTask(served.url, instanceId, 'instantiate', {
          flavourId: 'simple',
          vimConnectionInfo: { os: { vimId, vimType: OPENSTACK_VIM_TYPE } },
        });
        assert.equal(made.operationState, 'COMPLETED', JSON.stringify(made.error));
        const one = await infoOf(served.url, instanceId);
        await assertCloudMatches(client, db, instanceId, one);

        // Killed while Heat adds the server; the next server fails the op occ; retry converges.
        const first = await killedDuringUpdate(served, client, instanceId);
        served = await start();
        await failedByCrash(served.url, first);
        await finishes(served.url, first, 'retry', 'COMPLETED');
        const two = await infoOf(served.url, instanceId);
        assert.equal(two?.vnfcResourceInfo?.length, 2);
        assert.ok(
          servers(one).every((id) => servers(two).includes(id)),
          'the first server stays',
        );
        // Exactly the reported servers in the one stack: nothing duplicated.
        await assertCloudMatches(client, db, instanceId, two);

        // Killed again; the rollback after the restart removes what the scale out made.
        const second = await killedDuringUpdate(served, client, instanceId);
        served = await start();
        await failedByCrash(served.url, second);
        const stack = await client.heat.findStack(stackNameOf(instanceId));
        assert.ok(stack);
        await client.heat.waitStack(stack);
        const during = (await client.heat.resources(stack, { nestedDepth: 3 }))
          .filter((r) => r.resource_type === 'OS::Nova::Server' && r.physical_resource_id)
          .map((r) => r.physical_resource_id);
        const made2 = during.filter((id) => !servers(two).includes(id));
        assert.equal(made2.length, 1, `Heat made the third server before the rollback: ${during}`);
        await finishes(served.url, second, 'rollback', 'ROLLED_BACK');
        const back = await infoOf(served.url, instanceId);
        assert.deepEqual(servers(back), servers(two));
        await assertCloudMatches(client, db, instanceId, back);
        assert.equal(await client.nova.server(made2[0] as string), undefined, 'its server is gone');

        const end = await runTask(served.url, instanceId, 'terminate', { terminationType: 'FORCEFUL' });
        assert.equal(end.operationState, 'COMPLETED', JSON.stringify(end.error));
        terminated = true;
        await assertCloudMatches(client, db, instanceId, undefined);
      } finally {
        // The servers stop first (no more work), then what a failed run left goes: the stack
        // (its servers and ports) and the image Bosun uploaded.
        for (const s of started) await stop(s.child);
        if (instanceId && !terminated) {
          await removeStacks(client, [instanceId]).catch(() => undefined);
          const cloudKey = await cloudKeyOf(client);
          await releaseImages(client, db, { cloud: cloudKey, instanceId }).catch(() => undefined);
        }
        await db.close();
      }
    });
  });
}

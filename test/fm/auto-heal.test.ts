/**
 * Auto-heal over real HTTP on SQLite and PostgreSQL, with instances the LCM instantiated on the
 * simulated VIM: a storm of 50 heal-kind alerts becomes one HEAL op occ naming the failed VNFCs
 * (isAutomaticInvocation), a rule asking for the whole VNF heals it whole, an instance held by a
 * FAILED_TEMP operation gets its heal once it is free, failing heals back off and are given up at
 * the limit (said on the alarm), and the driver health check turns an injected crash into an
 * alarm that auto-heal heals and the recovery clears.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { batchesOf } from '../../src/fm/autoheal/batches.ts';
import { lcmServer, SIM, simFault } from '../http/vnflcm/lcm-server.ts';
import { H, runTask, startTask, V2, waitOpOcc } from '../http/vnflcm/lcm-support.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import {
  alarmsOf,
  alert,
  eventually,
  healsOf,
  instantiated,
  postAlerts,
  RECEIVERS,
  vnfcsOf,
} from './alert-support.ts';

const CONFIG = {
  fm: {
    alertReceivers: RECEIVERS,
    // Long enough for a test to post its storm in several webhooks within it.
    autoHealWindowMs: 3000,
    autoHealMaxAttempts: 2,
    autoHealBackoffMs: 0,
    healthIntervalMs: 0,
  },
};

const healOf = async (base: string, instanceId: string) =>
  eventually('a heal op occ', async () => (await healsOf(base, instanceId))[0]);

for (const dialect of DIALECTS) {
  describe(`auto-heal on ${dialect}`, () => {
    const server = lcmServer(dialect, CONFIG);
    const batches = (instanceId: string) => batchesOf(server.server.context.db.kysely, instanceId);

    test('a storm of 50 alerts starts one heal of the failed VNFCs, marked automatic', async () => {
      const instance = await instantiated(server.url, server.vnfdId, true);
      const vnfcs = vnfcsOf(instance);
      const storm = Array.from({ length: 50 }, (_, i) =>
        alert(instance.id, vnfcs[i % vnfcs.length].serverId, {
          function_type: 'auto_heal',
          alertname: `Down${i}`,
        }),
      );
      for (let i = 0; i < 50; i += 10) {
        const res = await postAlerts(server.url, storm.slice(i, i + 10));
        assert.equal(res.body.raised, 10, res.text);
      }
      const heal = await healOf(server.url, instance.id);
      const done = await waitOpOcc(server.url, heal.id);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      // The batch is gone once its heal completed: nothing is left to start another.
      await eventually('the batch ended', async () =>
        (await batches(instance.id)).length === 0 ? true : undefined,
      );
      const heals = await healsOf(server.url, instance.id);
      assert.equal(heals.length, 1);
      assert.equal(heals[0].isAutomaticInvocation, true);
      assert.deepEqual(
        [...(heals[0].operationParams.vnfcInstanceId as string[])].sort(),
        vnfcs.map((v) => v.vnfcInfoId).sort(),
      );
      const alarms = await alarmsOf(server.url, instance.id);
      assert.equal(alarms.length, 50);
      assert.ok(alarms.every((a) => a.faultDetails?.some((d) => d.startsWith(`auto-heal: heal ${heal.id}`))));
    });

    test('a rule asking for the whole VNF heals it whole', async () => {
      const instance = await instantiated(server.url, server.vnfdId, true);
      const [first] = vnfcsOf(instance);
      await postAlerts(server.url, [
        alert(instance.id, first.serverId, { function_type: 'auto_heal', heal_scope: 'vnf' }),
      ]);
      const heal = await healOf(server.url, instance.id);
      assert.equal((await waitOpOcc(server.url, heal.id)).operationState, 'COMPLETED');
      assert.equal(heal.operationParams.vnfcInstanceId, undefined);
    });

    test('an instance held by a FAILED_TEMP operation gets its heal once it is free', async () => {
      const instance = await instantiated(server.url, server.vnfdId, true);
      const [first] = vnfcsOf(instance);
      await simFault(server.url, 'server.create', 'fail');
      const scale = await runTask(server.url, instance.id, 'scale', {
        type: 'SCALE_OUT',
        aspectId: 'VDU1_scale',
      });
      assert.equal(scale.operationState, 'FAILED_TEMP');
      await postAlerts(server.url, [alert(instance.id, first.serverId, { function_type: 'auto_heal' })]);
      const [pending] = await batches(instance.id);
      assert.equal(pending.state, 'pending');
      // Past its due time the batch still waits: the instance is not free.
      await eventually('the batch is due', async () =>
        Date.now() > Date.parse(pending.dueAt) + 300 ? true : undefined,
      );
      assert.deepEqual(await healsOf(server.url, instance.id), []);
      assert.equal((await batches(instance.id))[0].state, 'pending');
      await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${scale.id}/fail`, { headers: H });
      const heal = await healOf(server.url, instance.id);
      assert.equal((await waitOpOcc(server.url, heal.id)).operationState, 'COMPLETED');
      assert.equal((await healsOf(server.url, instance.id)).length, 1);
    });

    test('failing heals back off and are given up at the limit, said on the alarm', async () => {
      const instance = await instantiated(server.url, server.vnfdId, true);
      const [first] = vnfcsOf(instance);
      await simFault(server.url, '*', 'fail', { count: 1000, message: 'the cloud is on fire' });
      try {
        await postAlerts(server.url, [alert(instance.id, first.serverId, { function_type: 'auto_heal' })]);
        const heal = await healOf(server.url, instance.id);
        assert.equal((await waitOpOcc(server.url, heal.id)).operationState, 'FAILED_TEMP');
        const noted = await eventually('the failure is on the alarm', async () => {
          const [a] = await alarmsOf(server.url, instance.id);
          return a.faultDetails?.find((d) => d.includes('attempt 1 of 2 failed'));
        });
        assert.match(noted, /the cloud is on fire/);
        // The next attempt waits for the instance: the operator fails the heal.
        await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${heal.id}/fail`, { headers: H });
        const second = await eventually('a second heal', async () =>
          (await healsOf(server.url, instance.id)).find((h) => h.id !== heal.id),
        );
        assert.equal((await waitOpOcc(server.url, second.id)).operationState, 'FAILED_TEMP');
        const gaveUp = await eventually('given up', async () => {
          const [a] = await alarmsOf(server.url, instance.id);
          return a.faultDetails?.find((d) =>
            d.startsWith('auto-heal: gave up after 2 failed automatic heals'),
          );
        });
        assert.ok(gaveUp);
        assert.equal((await batches(instance.id))[0].state, 'given-up');
        await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${second.id}/fail`, { headers: H });
        // A new fault on a given-up instance starts nothing.
        const more = await postAlerts(server.url, [
          alert(instance.id, first.serverId, { function_type: 'auto_heal' }),
        ]);
        assert.equal(more.body.healsQueued, 1, 'it joins the given-up batch');
        assert.deepEqual(
          (await batches(instance.id)).map((b) => b.state),
          ['given-up'],
        );
        assert.equal((await healsOf(server.url, instance.id)).length, 2);
      } finally {
        await http(server.url, 'DELETE', `${SIM}/faults`);
      }
    });
  });

  describe(`driver health on ${dialect}`, () => {
    const server = lcmServer(dialect, { fm: { autoHealWindowMs: 200, healthIntervalMs: 100 } });

    test('an injected crash raises an alarm with no monitoring; auto-heal heals it and the alarm clears', async () => {
      const instance = await instantiated(server.url, server.vnfdId, true);
      const [first] = vnfcsOf(instance);
      await http(server.url, 'POST', `${SIM}/servers/${first.serverId}/crash`, {
        body: { reason: 'kernel panic' },
      });
      const alarm = await eventually(
        'the health alarm',
        async () => (await alarmsOf(server.url, instance.id))[0],
      );
      assert.equal(alarm.rootCauseFaultyResource.faultyResource.resourceId, first.serverId);
      assert.equal(alarm.rootCauseFaultyResource.faultyResourceType, 'COMPUTE');
      assert.deepEqual(alarm.vnfcInstanceIds, [first.vnfcInfoId]);
      assert.match(alarm.probableCause as string, /crashed: kernel panic/);
      const heal = await healOf(server.url, instance.id);
      assert.equal((await waitOpOcc(server.url, heal.id)).operationState, 'COMPLETED');
      assert.deepEqual(heal.operationParams.vnfcInstanceId, [first.vnfcInfoId]);
      const cleared = await eventually('the alarm cleared', async () => {
        const [a] = await alarmsOf(server.url, instance.id);
        return a.alarmClearedTime ? a : undefined;
      });
      assert.equal(cleared.id, alarm.id);
      assert.equal((await healsOf(server.url, instance.id)).length, 1);
    });

    test('auto-heal off: the crash is an alarm only, cleared once the operator heals', async () => {
      const instance = await instantiated(server.url, server.vnfdId, false);
      const [first] = vnfcsOf(instance);
      await http(server.url, 'POST', `${SIM}/servers/${first.serverId}/crash`, { body: {} });
      const alarm = await eventually(
        'the health alarm',
        async () => (await alarmsOf(server.url, instance.id))[0],
      );
      assert.deepEqual(await healsOf(server.url, instance.id), []);
      const heal = await startTask(server.url, instance.id, 'heal', { vnfcInstanceId: [first.vnfcInfoId] });
      assert.equal((await waitOpOcc(server.url, heal)).operationState, 'COMPLETED');
      const cleared = await eventually('the alarm cleared', async () => {
        const [a] = await alarmsOf(server.url, instance.id);
        return a.alarmClearedTime ? a : undefined;
      });
      assert.equal(cleared.id, alarm.id);
    });
  });
}

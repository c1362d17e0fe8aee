/**
 * Auto-heal is durable, on SQLite and PostgreSQL with real `bosun serve` processes: the process
 * that raised a heal-kind alarm is killed (SIGKILL) before any heal could start, and after the
 * restart — two worker processes at once — the heal happens exactly once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { batchesOf } from '../../src/fm/autoheal/batches.ts';
import { openDatabase } from '../../src/store/db/database.ts';
import { onboardOnce, waitOpOcc } from '../http/vnflcm/lcm-support.ts';
import { type Env, kill9, newEnv, serve, stop } from '../http/vnflcm/processes.ts';
import { DIALECTS } from '../support/databases.ts';
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

const FM_ENV = {
  BOSUN_FM_ALERT_RECEIVERS: JSON.stringify(RECEIVERS),
  BOSUN_FM_AUTO_HEAL_WINDOW_MS: '200',
  BOSUN_FM_HEALTH_INTERVAL_MS: '0',
};

for (const dialect of DIALECTS) {
  describe(`auto-heal across a crash on ${dialect}`, () => {
    test('kill -9 between the alarm and its heal: the heal happens once after restart', async () => {
      const env: Env = await newEnv(dialect, FM_ENV);
      // An API process and a worker: the worker instantiates, then is gone before the alarm,
      // so that nothing can start the heal before the API process is killed too.
      const api = await serve(env, 'api');
      const worker = await serve(env, 'worker');
      let restarted: Awaited<ReturnType<typeof serve>>[] = [];
      try {
        const { vnfdId } = await onboardOnce(api.url);
        const instance = await instantiated(api.url, vnfdId as string, true);
        const [first, second] = vnfcsOf(instance);
        await kill9(worker.child);
        const res = await postAlerts(api.url, [
          alert(instance.id, first.serverId, { function_type: 'auto_heal' }),
          alert(instance.id, second.serverId, { function_type: 'auto_heal' }),
        ]);
        assert.deepEqual([res.body.raised, res.body.healsQueued], [2, 2], res.text);
        await kill9(api.child);

        restarted = [await serve(env, 'all'), await serve(env, 'worker')];
        const base = restarted[0].url;
        const heal = await eventually(
          'the heal after restart',
          async () => (await healsOf(base, instance.id))[0],
        );
        assert.equal((await waitOpOcc(base, heal.id)).operationState, 'COMPLETED');
        assert.equal(heal.isAutomaticInvocation, true);
        assert.deepEqual(
          [...(heal.operationParams.vnfcInstanceId as string[])].sort(),
          [first.vnfcInfoId, second.vnfcInfoId].sort(),
        );
        // The batch is gone once its heal completed: no process has anything left to start.
        await eventually('every alarm says its heal started', async () => {
          const alarms = await alarmsOf(base, instance.id);
          return alarms.every((a) => a.faultDetails?.some((d) => d.startsWith(`auto-heal: heal ${heal.id}`)))
            ? alarms
            : undefined;
        });
        const db = openDatabase({ url: env.databaseUrl, poolSize: 1 });
        try {
          await eventually('the batch ended', async () =>
            (await batchesOf(db.kysely, instance.id)).length === 0 ? true : undefined,
          );
        } finally {
          await db.close();
        }
        assert.equal((await healsOf(base, instance.id)).length, 1, 'exactly one heal');
      } finally {
        await Promise.all([...restarted, api, worker].map((p) => stop(p.child)));
      }
    });
  });
}

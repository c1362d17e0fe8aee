/**
 * A worker that stops gracefully (SIGTERM) while an operation runs finishes the step in flight
 * and hands the op occ back to the queue at the next step boundary: a new server on the same
 * database resumes it and completes it, with no error and no duplicate resources — where a
 * worker that died leaves an op occ the next one ends FAILED_TEMP.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { onboard, sample } from '../vnfpkgm/support.ts';
import { createInstance, INSTANTIATE, MAIN_SAMPLE, startTask, waitOpOcc } from './lcm-support.ts';
import { newEnv, serve, stop } from './processes.ts';

for (const dialect of DIALECTS) {
  describe(`LCM graceful stop (${dialect})`, () => {
    test('stopped while PROCESSING: handed back at the step boundary, the next server completes it', async () => {
      // Slow VIM calls: the infra step is still running when the stop arrives.
      const env = await newEnv(dialect, {
        BOSUN_SIM_OPERATION_DELAY_MS: '150',
        BOSUN_SERVER_SHUTDOWN_TIMEOUT_MS: '60000',
      });
      const one = await serve(env, 'all');
      let two: Awaited<ReturnType<typeof serve>> | undefined;
      try {
        const pkg = await onboard(one.url, sample(MAIN_SAMPLE));
        const inst = await createInstance(one.url, pkg.vnfdId as string);
        const id = await startTask(one.url, inst.id, 'instantiate', INSTANTIATE);
        assert.equal((await waitOpOcc(one.url, id, ['PROCESSING'])).operationState, 'PROCESSING');
        await stop(one.child, 60_000);
        await one.logged(/LCM operation handed back to the queue \(shutdown\)/);
        two = await serve(env, 'all');
        const done = await waitOpOcc(two.url, id, undefined, 60_000);
        assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
        assert.equal(done.error, undefined);
        const servers = await http<unknown[]>(two.url, 'GET', `/bosun/v1/sim/servers?instanceId=${inst.id}`);
        assert.equal(servers.body.length, 2, 'each VNFC built once');
      } finally {
        await stop(one.child);
        if (two) await stop(two.child);
      }
    });
  });
}

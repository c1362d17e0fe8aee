/**
 * A cluster on PostgreSQL: the event stream is served by an API-only process while a worker
 * process runs the operation. Streams poll only every ten minutes here, so every event after the
 * stream opened reached it through PostgreSQL's NOTIFY; the stream follows the op occ as it
 * runs, is cancelled from the API, and ends FAILED_TEMP with exactly the timeline's events.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { http } from '../../support/http.ts';
import { simFault } from '../vnflcm/lcm-server.ts';
import { createInstance, getOpOcc, INSTANTIATE, onboardOnce, startTask, V2 } from '../vnflcm/lcm-support.ts';
import { newEnv, serve, stop } from '../vnflcm/processes.ts';
import { brief, readStream, timeline } from './timeline-support.ts';

describe('op occ event stream across processes (postgres)', () => {
  test('an API process streams the events of an op occ a worker process runs (LISTEN/NOTIFY)', async () => {
    const env = await newEnv('postgres', { BOSUN_LCM_TIMELINE_POLL_MS: '600000' });
    const api = await serve(env, 'api');
    const worker = await serve(env, 'worker');
    try {
      const pkg = await onboardOnce(api.url);
      const inst = await createInstance(api.url, pkg.vnfdId as string);
      await simFault(api.url, 'server.create', 'hang', { timeoutMs: 60000 });
      const id = await startTask(api.url, inst.id, 'instantiate', INSTANTIATE);
      let cancelled = false;
      const stream = await readStream(api.url, id, {
        onEvent: async (event) => {
          if (brief(event) !== 'step infra started' || cancelled) return;
          // Written by the worker; the rest will come only through NOTIFY.
          assert.equal((await getOpOcc(api.url, id)).operationState, 'PROCESSING');
          cancelled = true;
          const res = await http(api.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/cancel`, {
            headers: { Version: '2.0.0' },
            body: { cancelMode: 'FORCEFUL' },
          });
          assert.equal(res.status, 202, res.text);
        },
      });
      assert.ok(cancelled, JSON.stringify(stream.events));
      assert.deepEqual(stream.end, { operationState: 'FAILED_TEMP' });
      assert.deepEqual(stream.events.map(brief).slice(-3), [
        'step infra failed',
        'error',
        'state FAILED_TEMP',
      ]);
      assert.deepEqual(stream.events, (await timeline(api.url, id)).events);
    } finally {
      await stop(api.child);
      await stop(worker.child);
    }
  });
});

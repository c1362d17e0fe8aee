/**
 * A rolling restart under load, as Kubernetes does one: every replica (two API, two workers) in
 * turn gets SIGTERM and is replaced, the next only once the new one is ready and HAProxy sends it
 * traffic. An API replica answers /readyz 503 and keeps serving for server.drainMs, so HAProxy
 * takes it out before it closes; a worker hands its op occ back at a step boundary and another
 * finishes it. Clients see zero failed requests and zero failed operations, and every op occ's
 * notifications arrive, each event once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAIN_SAMPLE } from '../http/vnflcm/lcm-support.ts';
import { onboard, SMALL_SAMPLE, sample } from '../http/vnfpkgm/support.ts';
import { startCluster } from '../support/cluster.ts';
import { failedRequests, startLoad } from './load.ts';
import { checkNotifications, subscribe } from './notifications.ts';
import { summary } from './summary.ts';

test('rolling restart of every replica under load: no failed request, no failed operation', {
  // Its work is fixed (the kills or restarts, then the settling); on a loaded CI machine the same
  // work has taken over five minutes.
  timeout: 900_000,
}, async () => {
  const cluster = await startCluster({
    vars: {
      BOSUN_SERVER_DRAIN_MS: '2000',
      BOSUN_SERVER_SHUTDOWN_TIMEOUT_MS: '30000',
      BOSUN_SIM_OPERATION_DELAY_MS: '100',
      BOSUN_OUTBOUND_ALLOW: '127.0.0.1',
    },
  });
  const sub = await subscribe(cluster.url);
  try {
    const pkg = await onboard(cluster.url, sample(MAIN_SAMPLE));
    assert.equal(pkg.onboardingState, 'ONBOARDED');
    const load = startLoad({
      url: cluster.url,
      vnfdId: pkg.vnfdId as string,
      lcmClients: 3,
      packageZip: sample(SMALL_SAMPLE),
    });
    await sleep(2000);
    for (const replica of cluster.replicas) {
      await cluster.restart(replica);
      await sleep(1000);
    }
    const report = await load.stop();
    const notes = await checkNotifications(sub, report);
    console.log(summary('rolling restart', { restarts: cluster.replicas.length }, report, notes));
    assert.equal(failedRequests(report), 0, `failed requests: ${JSON.stringify([...report.failures])}`);
    assert.deepEqual(report.unfinished, []);
    assert.deepEqual([...report.retried], [], 'no op occ went FAILED_TEMP');
    assert.equal(report.restarted, 0, 'no op occ was rolled back');
    assert.ok(report.opOccs.size >= 8, `operations ran during the restarts (${report.opOccs.size})`);
    for (const [id, op] of report.opOccs) assert.equal(op.state, 'COMPLETED', id);
    assert.deepEqual(report.vnfcMismatches, []);
    assert.deepEqual(report.packages.stuck, []);
    assert.ok(report.packages.onboarded > 0);
    assert.deepEqual(notes.missing, []);
    assert.deepEqual(notes.doubled, []);
  } catch (err) {
    console.log(cluster.outputs().slice(-20_000));
    throw err;
  } finally {
    await sub.close();
    await cluster.stop();
  }
});

/**
 * Every outcome of a lease renewal reaches the metrics, through the real job runner: a job whose
 * renewals succeed, then fail (the database does not answer: tried again at the next beat), then
 * find the lease taken (the job is aborted). The worker is a plain object, as every worker is; its
 * renewals answer as the queue's would. Also: the metrics stop counting once their server closes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Registry } from 'prom-client';
import { registerClusterMetrics } from '../../../src/http/ops/cluster-metrics.ts';
import { JobRunner, type Worker } from '../../../src/jobs/runner.ts';
import { createLogger } from '../../../src/logging.ts';
import { openRuntimeDatabase } from '../../../src/runtime-database.ts';
import { freshDatabaseUrl } from '../../support/databases.ts';
import { testConfig } from '../../support/server.ts';
import { metricValue } from './metrics-text.ts';

const replica = { id: 'h:1:abcdef', role: 'worker', version: '0.0.0', hostname: 'h', pid: 1, startedAt: '' };

describe('lease renewal outcomes', () => {
  test('renewed, failed and lost are counted per worker; a closed server counts no more', async () => {
    const { db } = await openRuntimeDatabase(testConfig(await freshDatabaseUrl('sqlite')));
    const registry = new Registry();
    const stopCounting = registerClusterMetrics(registry, db, replica);
    // Two renewals hold, one is not answered, the next finds the lease gone.
    const answers: (() => Promise<boolean>)[] = [
      async () => true,
      async () => true,
      async () => {
        throw new Error('connection reset');
      },
      async () => false,
    ];
    let claimed = false;
    let aborted!: () => void;
    const lost = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    const worker: Worker = {
      name: 'test worker',
      concurrency: 1,
      stopGraceMs: 1000,
      recover: async () => {},
      claimable: async () => (claimed ? [] : ['job-1']),
      claim: async () => {
        claimed = true;
        return true;
      },
      renew: () => (answers.shift() ?? (async () => false))(),
      run: async (job) => {
        await new Promise<void>((resolve) => job.signal.addEventListener('abort', () => resolve()));
        aborted();
      },
    };
    const runner = new JobRunner(worker, { intervalMs: 1000, leaseMs: 150, logger: createLogger('silent') });
    try {
      runner.start();
      await lost;
      const text = await registry.metrics();
      assert.equal(metricValue(text, 'bosun_jobs_claimed_total', { worker: 'test worker' }), 1);
      const outcome = (o: string) =>
        metricValue(text, 'bosun_lease_renewals_total', { worker: 'test worker', outcome: o });
      assert.deepEqual([outcome('renewed'), outcome('failed'), outcome('lost')], [2, 1, 1]);
      assert.match(
        text,
        /bosun_replica_info\{role="worker",version="0\.0\.0",replica_id="h:1:abcdef",hostname="h"\} 1/,
      );
      assert.equal(metricValue(text, 'bosun_db_pool_waiting', {}), 0);
      assert.equal(metricValue(text, 'bosun_queue_depth', { queue: 'lcm-v2' }), 0);
    } finally {
      await runner.stop();
    }
    stopCounting();
    claimed = false;
    const again = new JobRunner(
      { ...worker, run: async () => {} },
      {
        intervalMs: 1000,
        leaseMs: 150,
        logger: createLogger('silent'),
      },
    );
    again.start();
    for (let i = 0; i < 200 && !claimed; i++) await new Promise((r) => setTimeout(r, 10));
    await again.stop();
    assert.equal(claimed, true, 'the second runner claimed the job');
    assert.equal(
      metricValue(await registry.metrics(), 'bosun_jobs_claimed_total', { worker: 'test worker' }),
      1,
    );
    await db.close();
  });
});

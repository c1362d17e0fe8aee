/**
 * The cluster's metrics after real work, with real `bosun serve` processes on one database: a
 * replica names its role; its workers count the jobs they claim and the leases they renew while an
 * LCM operation runs; a worker started after that replica was killed with SIGKILL takes the
 * abandoned op occ over and counts it; every replica reads the queues' backlogs from the database;
 * the admin status endpoint lists the replicas, and those stopped gracefully leave the registry.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { ClusterStatus } from '../../../src/http/ops/cluster-status.ts';
import { NodeSqliteDialect } from '../../../src/store/db/node-sqlite-dialect.ts';
import type { Tables } from '../../../src/store/db/tables.ts';
import { sweepReplicas } from '../../../src/store/replicas/registry.ts';
import { BOSUN_VERSION } from '../../../src/version.ts';
import { DIALECTS, type TestDialect } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { createInstance, INSTANTIATE, MAIN_SAMPLE, startTask, waitOpOcc } from '../vnflcm/lcm-support.ts';
import { type Env, kill9, newEnv, type Served, serve, stop } from '../vnflcm/processes.ts';
import { createPkg, onboard, putZip, SMALL_SAMPLE, sample, waitSettled } from '../vnfpkgm/support.ts';
import { metricValue } from './metrics-text.ts';

const SIM = '/bosun/v1/sim';

const scrape = async (url: string) => (await http(url, 'GET', '/metrics')).text;

/** Scrapes `url` until `metric{labels}` is at least `min`; returns that scrape. */
async function until(
  url: string,
  metric: string,
  labels: Record<string, string>,
  min: number,
): Promise<string> {
  let text = '';
  for (let i = 0; i < 300; i++) {
    text = await scrape(url);
    if ((metricValue(text, metric, labels) ?? 0) >= min) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${metric}${JSON.stringify(labels)} never reached ${min}:\n${text}`);
}

async function faultUsed(url: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if ((await http<unknown[]>(url, 'GET', `${SIM}/faults`)).body.length === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the injected fault was never used');
}

function openDb(env: Env, dialect: TestDialect): Kysely<Tables> {
  if (dialect === 'sqlite')
    return new Kysely<Tables>({ dialect: new NodeSqliteDialect(env.databaseUrl.slice('sqlite:'.length)) });
  return new Kysely<Tables>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: env.databaseUrl, max: 1 }) }),
  });
}

const replicaIdOf = (text: string, role: string) =>
  new RegExp(`bosun_replica_info\\{role="${role}",version="[^"]+",replica_id="([^"]+)"`).exec(text)?.[1];

for (const dialect of DIALECTS) {
  describe(`cluster metrics across a crash (${dialect})`, () => {
    test('claims, renewals, a take-over after SIGKILL, backlogs and the replica registry', async () => {
      const env = await newEnv(dialect);
      const db = openDb(env, dialect);
      const started: Served[] = [];
      const start = async (role: 'all' | 'api' | 'worker') => {
        const s = await serve(env, role);
        started.push(s);
        return s;
      };
      try {
        const one = await start('all');
        const api = await start('api');
        const pkg = await onboard(one.url, sample(MAIN_SAMPLE));
        const inst = await createInstance(api.url, pkg.vnfdId as string);
        await http(one.url, 'POST', `${SIM}/faults`, {
          body: { kind: 'server.create', action: 'hang', timeoutMs: 600000 },
        });
        const id = await startTask(api.url, inst.id, 'instantiate', INSTANTIATE);
        await faultUsed(one.url);

        // The replica that runs the jobs: its claims, and its renewals while the VIM call hangs.
        const running = await until(
          one.url,
          'bosun_lease_renewals_total',
          { worker: 'LCM runner', outcome: 'renewed' },
          2,
        );
        const oneId = replicaIdOf(running, 'all');
        assert.ok(oneId, running);
        assert.match(oneId, new RegExp(`:${one.child.pid}:[0-9a-f]{6}$`));
        assert.match(
          running,
          new RegExp(
            `bosun_replica_info\\{role="all",version="${BOSUN_VERSION}",replica_id="${oneId}",hostname="[^"]+"\\} 1`,
          ),
        );
        assert.equal(metricValue(running, 'bosun_jobs_claimed_total', { worker: 'onboarding worker' }), 1);
        assert.equal(metricValue(running, 'bosun_jobs_claimed_total', { worker: 'LCM runner' }), 1);
        assert.equal(
          metricValue(running, 'bosun_lease_renewals_total', { worker: 'LCM runner', outcome: 'lost' }),
          undefined,
        );
        assert.equal(metricValue(running, 'bosun_queue_depth', { queue: 'lcm-v2' }), 0);
        assert.equal(metricValue(running, 'bosun_queue_oldest_age_seconds', { queue: 'lcm-v2' }), 0);
        // The api replica runs no job, and reads the same registry and backlogs.
        const apiText = await scrape(api.url);
        assert.ok(replicaIdOf(apiText, 'api'));
        assert.equal(metricValue(apiText, 'bosun_jobs_claimed_total', { worker: 'LCM runner' }), undefined);
        assert.equal(metricValue(apiText, 'bosun_cluster_replicas', { role: 'all', state: 'alive' }), 1);
        assert.equal(metricValue(apiText, 'bosun_cluster_replicas', { role: 'api', state: 'alive' }), 1);
        assert.match(apiText, /bosun_queue_depth\{queue="notifications"\} \d+/);
        if (dialect === 'sqlite') assert.equal(metricValue(apiText, 'bosun_db_pool_waiting', {}), 0);
        else assert.match(apiText, /bosun_db_pool_wait_seconds_count [1-9]/);

        await kill9(one.child);

        // With no replica running jobs, an upload waits in the onboarding queue, in every replica's view.
        const waiting = await createPkg(api.url);
        assert.equal((await putZip(api.url, waiting.id, sample(SMALL_SAMPLE))).status, 202);
        const backlog = await until(api.url, 'bosun_queue_depth', { queue: 'onboarding' }, 1);
        assert.equal(metricValue(backlog, 'bosun_queue_depth', { queue: 'onboarding' }), 1);
        assert.ok(
          (metricValue(backlog, 'bosun_queue_oldest_age_seconds', { queue: 'onboarding' }) ?? -1) >= 0,
        );

        // A worker started after the crash takes the abandoned op occ over and counts it.
        const worker = await start('worker');
        const failed = await waitOpOcc(api.url, id);
        assert.equal(failed.operationState, 'FAILED_TEMP');
        assert.equal((await waitSettled(api.url, waiting.id)).onboardingState, 'ONBOARDED');
        const taken = await until(
          worker.url,
          'bosun_job_takeovers_total',
          { queue: 'vnf_lcm_op_occs_v2' },
          1,
        );
        assert.equal(metricValue(taken, 'bosun_job_takeovers_total', { queue: 'vnf_lcm_op_occs_v2' }), 1);
        assert.equal(metricValue(taken, 'bosun_jobs_claimed_total', { worker: 'onboarding worker' }), 1);
        assert.equal(metricValue(taken, 'bosun_queue_depth', { queue: 'onboarding' }), 0);
        assert.ok(replicaIdOf(taken, 'worker'));

        // The status endpoint: three replicas registered, the killed one still listed.
        const status = (await http<ClusterStatus>(api.url, 'GET', '/bosun/v1/status')).body;
        assert.deepEqual(status.replicas.map((r) => r.role).sort(), ['all', 'api', 'worker']);
        assert.ok(status.replicas.some((r) => r.id === oneId && r.pid === one.child.pid));
        assert.deepEqual(
          status.queues.map((q) => q.queue),
          ['onboarding', 'lcm-v2', 'lcm-v1', 'notifications'],
        );
        for (const q of status.queues)
          assert.ok(q.pending >= 0 && q.oldestAgeSeconds >= 0, JSON.stringify(q));

        // Graceful stops remove their rows; the killed replica's row is the janitor's to sweep.
        await stop(worker.child);
        await stop(api.child);
        const left = await db.selectFrom('replicas').select('id').execute();
        assert.deepEqual(
          left.map((r) => r.id),
          [oneId],
        );
        assert.deepEqual(await sweepReplicas(db, 0), [oneId]);
      } finally {
        for (const s of started) await kill9(s.child);
        await db.destroy();
      }
    });
  });
}

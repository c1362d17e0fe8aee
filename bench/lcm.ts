/**
 * LCM benchmarks against real `bosun serve` processes on the simulated VIM with no simulated
 * latency, using a sample package without hook scripts (hooks are the scripts' own time):
 * 1. SQLite, one process: BOSUN_BENCH_LCM_INSTANCES instances (default 200), 20 at a time, each
 *    created, instantiated, scaled out and in, terminated and deleted — operations/s and the p50 /
 *    p99 from POST to COMPLETED;
 * 2. 100 concurrent instantiations;
 * 3. the same cycle on PostgreSQL with an API server and one, two and three worker processes
 *    (when the machine has PostgreSQL), with the CPU share of PostgreSQL and of Bosun;
 * and for each the database statements and transactions per operation, and the targets of a
 * production cluster (PostgreSQL with two workers at least twice SQLite's ops/s, a p50 and 100
 * concurrent instantiations no slower) as met or MISSED.
 * 4. POST /vnf_instances, GET /vnf_instances/{id}, and the first page of the instance and op occ
 *    lists with 10,000 of each stored — next to Tacker's numbers (shared/reference/tacker-baseline.md).
 * BOSUN_BENCH_DURATION (s, default 5), BOSUN_BENCH_ROWS (default 10000), BOSUN_BENCH_LCM_DATABASES
 * (default `sqlite,postgres`: which of 1-2,4 and 3 run), BOSUN_BENCH_LCM_PG_WORKERS (default `1,2,3`).
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { startTempPostgres } from '../scripts/postgres.ts';
import { NodeSqliteDialect } from '../src/store/db/node-sqlite-dialect.ts';
import type { Tables } from '../src/store/db/tables.ts';
import { newEnv, type Served, serve, stop } from '../test/http/vnflcm/processes.ts';
import { sampleVariant } from '../test/http/vnflcm/sample-package.ts';
import { cpuShare, pidsNamed } from './support/cpu.ts';
import { type DbCost, dbCost } from './support/db-cost.ts';
import { printRows, type Row } from './support/report.ts';

const instances = Number(process.env.BOSUN_BENCH_LCM_INSTANCES ?? '200');
const duration = Number(process.env.BOSUN_BENCH_DURATION ?? '5');
const seedRows = Number(process.env.BOSUN_BENCH_ROWS ?? '10000');
const databases = (process.env.BOSUN_BENCH_LCM_DATABASES ?? 'sqlite,postgres').split(',');
const pgWorkers = (process.env.BOSUN_BENCH_LCM_PG_WORKERS ?? '1,2,3').split(',').map(Number);
const CONCURRENCY = 20;
const H = { Version: '2.0.0', 'content-type': 'application/json' };
const V2 = '/vnflcm/v2';

/** The main Tacker sample with its Vnflcm operations emptied: no hook scripts to run. */
async function hooklessPackage(): Promise<{ zip: Buffer; vnfdId: string }> {
  return sampleVariant('sol_v2_common__basic_lcms_max_individual_vnfc.zip', {
    vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
    edit: {
      'Definitions/v2_sample3_df_simple.yaml': (text) =>
        text
          .replaceAll('            implementation: sample-script\n', '            implementation: []\n')
          .replace(/\n {6}artifacts:\n {8}sample-script:\n[^\n]*\n[^\n]*\n[^\n]*\n/, '\n'),
    },
  });
}

async function call(base: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(base + path, {
    method,
    headers: H,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function onboard(base: string, zip: Buffer): Promise<void> {
  const pkg = (await (
    await fetch(`${base}/vnfpkgm/v1/vnf_packages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
  ).json()) as { id: string };
  const put = await fetch(`${base}/vnfpkgm/v1/vnf_packages/${pkg.id}/package_content`, {
    method: 'PUT',
    headers: { 'content-type': 'application/zip' },
    body: zip,
  });
  if (put.status !== 202) throw new Error(`upload: ${put.status}`);
  for (;;) {
    const info = (await (await fetch(`${base}/vnfpkgm/v1/vnf_packages/${pkg.id}`)).json()) as {
      onboardingState: string;
    };
    if (info.onboardingState === 'ONBOARDED') return;
    if (info.onboardingState === 'CREATED') throw new Error('the benchmark package did not onboard');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** POSTs a task and polls its op occ to COMPLETED; returns the milliseconds from POST to COMPLETED. */
async function operate(base: string, instanceId: string, task: string, body: unknown): Promise<number> {
  const started = performance.now();
  const res = await call(base, 'POST', `${V2}/vnf_instances/${instanceId}/${task}`, body);
  if (res.status !== 202) throw new Error(`${task}: ${res.status} ${await res.text()}`);
  const id = (res.headers.get('location') ?? '').split('/').pop();
  for (;;) {
    const op = (await (await call(base, 'GET', `${V2}/vnf_lcm_op_occs/${id}`)).json()) as {
      operationState: string;
      error?: unknown;
    };
    if (op.operationState === 'COMPLETED') return performance.now() - started;
    if (['FAILED_TEMP', 'FAILED', 'ROLLED_BACK'].includes(op.operationState)) {
      throw new Error(`${task} ended ${op.operationState}: ${JSON.stringify(op.error)}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function create(base: string, vnfdId: string): Promise<string> {
  const res = await call(base, 'POST', `${V2}/vnf_instances`, { vnfdId });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/** Progress on stderr (the table goes to stdout). */
const log = (what: string) => process.stderr.write(`lcm bench: ${what}\n`);

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** Every instance through create, instantiate, scale out, scale in, terminate, delete; CONCURRENCY at a time. */
async function cycles(
  base: string,
  vnfdId: string,
  n: number,
): Promise<{ opsPerS: number; p50: number; p99: number; ops: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < n) {
      next++;
      const id = await create(base, vnfdId);
      latencies.push(await operate(base, id, 'instantiate', { flavourId: 'simple' }));
      latencies.push(await operate(base, id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' }));
      latencies.push(await operate(base, id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' }));
      latencies.push(await operate(base, id, 'terminate', { terminationType: 'FORCEFUL' }));
      const del = await call(base, 'DELETE', `${V2}/vnf_instances/${id}`);
      if (del.status !== 204) throw new Error(`delete: ${del.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    opsPerS: latencies.length / seconds,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    ops: latencies.length,
  };
}

async function concurrentInstantiations(base: string, vnfdId: string, n: number) {
  const ids = await Promise.all(Array.from({ length: n }, () => create(base, vnfdId)));
  const started = performance.now();
  const latencies = (
    await Promise.all(ids.map((id) => operate(base, id, 'instantiate', { flavourId: 'simple' })))
  ).sort((a, b) => a - b);
  return {
    wall: (performance.now() - started) / 1000,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    ids,
  };
}

/** Copies of a real instance and op occ row, `n` of each, straight into the database. */
async function seed(url: string, n: number): Promise<void> {
  const db = url.startsWith('sqlite:')
    ? new Kysely<Tables>({ dialect: new NodeSqliteDialect(url.slice('sqlite:'.length)) })
    : new Kysely<Tables>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
      });
  try {
    const instance = await db
      .selectFrom('vnf_instances_v2')
      .selectAll()
      .where('instantiation_state', '=', 'INSTANTIATED')
      .executeTakeFirstOrThrow();
    const opOcc = await db
      .selectFrom('vnf_lcm_op_occs_v2')
      .selectAll()
      .where('operation_state', '=', 'COMPLETED')
      .executeTakeFirstOrThrow();
    for (let i = 0; i < n; i += 500) {
      const count = Math.min(500, n - i);
      await db.transaction().execute(async (trx) => {
        const rows = Array.from({ length: count }, () => ({
          ...instance,
          id: randomUUID(),
          busy_op_occ_id: null,
        }));
        await trx.insertInto('vnf_instances_v2').values(rows).execute();
        const occs = Array.from({ length: count }, (_, k) => ({
          ...opOcc,
          id: randomUUID(),
          vnf_instance_id: rows[k].id,
        }));
        await trx.insertInto('vnf_lcm_op_occs_v2').values(occs).execute();
      });
    }
  } finally {
    await db.destroy();
  }
}

async function cannon(url: string, connections: number, method: 'GET' | 'POST' = 'GET', body?: string) {
  const opts = { url, connections, duration, method, headers: H, ...(body ? { body } : {}) };
  await autocannon({ ...opts, duration: 1 });
  return autocannon(opts);
}

/** Statements and transactions per operation (API and workers together). */
const perOp = (cost: DbCost, ops: number) =>
  `${(cost.statements / ops).toFixed(1)} statements and ${(cost.transactions / ops).toFixed(1)} transactions per operation`;
const pctOf = (share: number) => `${(share * 100).toFixed(0)} %`;

type Cycles = Awaited<ReturnType<typeof cycles>>;
let sqliteCycles: Cycles | undefined;
let pg2: Cycles | undefined;
let sqliteConcurrent: number | undefined;
let pgConcurrent: number | undefined;

const rows: Row[] = [];
const pkg = await hooklessPackage();
/** Production's lease and poll interval (the tests' processes shorten both); no graceful wait. */
const QUIET = {
  BOSUN_SIM_GRACEFUL_WAIT_CAP_MS: '0',
  BOSUN_WORKER_LEASE_MS: '30000',
  BOSUN_WORKER_POLL_INTERVAL_MS: '1000',
};
if (databases.includes('sqlite')) {
  // 1-2, 4: SQLite, one process.
  const env = await newEnv('sqlite', QUIET);
  const server = await serve(env, 'all');
  try {
    await onboard(server.url, pkg.zip);
    log('SQLite: package onboarded; cycles');
    const { result, share } = await cpuShare({ bosun: () => [server.child.pid ?? 0] }, () =>
      dbCost([server.url], () => cycles(server.url, pkg.vnfdId, instances)),
    );
    const { result: r, cost } = result;
    sqliteCycles = r;
    rows.push([
      `SQLite, 1 process: ${instances} instances × (instantiate, scale out, scale in, terminate), ${CONCURRENCY} at a time`,
      `${r.opsPerS.toFixed(1)} ops/s`,
      `POST→COMPLETED p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms (${r.ops} ops); ${perOp(cost, r.ops)}; CPU of the 2 cores: Bosun ${pctOf(share.bosun)}`,
    ]);
    log('SQLite: 100 concurrent instantiations');
    const c = await concurrentInstantiations(server.url, pkg.vnfdId, 100);
    sqliteConcurrent = c.wall;
    rows.push([
      'SQLite: 100 concurrent instantiations',
      `${c.wall.toFixed(2)} s`,
      `POST→COMPLETED p50 ${c.p50.toFixed(0)} ms, p99 ${c.p99.toFixed(0)} ms`,
    ]);
    log(`SQLite: seeding ${seedRows} instances and op occs`);
    await seed(env.databaseUrl, seedRows);
    const created = await cannon(
      `${server.url}${V2}/vnf_instances`,
      10,
      'POST',
      JSON.stringify({ vnfdId: pkg.vnfdId }),
    );
    rows.push([
      'POST /vnflcm/v2/vnf_instances (10 conn)',
      `${created.requests.average.toFixed(0)} req/s`,
      `p99 ${created.latency.p99} ms; errors ${created.errors + created.non2xx}; Tacker 3.9 req/s`,
    ]);
    const one = await cannon(`${server.url}${V2}/vnf_instances/${c.ids[0]}`, 10);
    rows.push([
      'GET /vnflcm/v2/vnf_instances/{id} (10 conn)',
      `${one.requests.average.toFixed(0)} req/s`,
      `p50 ${one.latency.p50} ms, p99 ${one.latency.p99} ms; Tacker 256 req/s (p50 36 ms)`,
    ]);
    for (const [path, tacker] of [
      ['vnf_instances', 'Tacker: HTTP 400 "Response too big" (0.53 req/s when raised)'],
      ['vnf_lcm_op_occs', ''],
    ]) {
      for (const connections of [1, 10]) {
        const res = await cannon(`${server.url}${V2}/${path}`, connections);
        rows.push([
          `GET /vnflcm/v2/${path}, first page of 100, ${seedRows.toLocaleString('en')}+ stored (${connections} conn)`,
          `${res.requests.average.toFixed(0)} req/s`,
          `p50 ${res.latency.p50} ms, p99 ${res.latency.p99} ms; errors ${res.errors + res.non2xx}${tacker ? `; ${tacker}` : ''}`,
        ]);
      }
    }
  } finally {
    await stop(server.child);
  }
}
if (databases.includes('postgres')) {
  // 3. PostgreSQL: an API server and 1, 2 and 3 worker processes.
  let pgServer: Awaited<ReturnType<typeof startTempPostgres>> | undefined;
  try {
    if (!process.env.BOSUN_TEST_PG_URL) pgServer = await startTempPostgres();
  } catch (err) {
    rows.push(['PostgreSQL', 'skipped', (err as Error).message]);
  }
  if (process.env.BOSUN_TEST_PG_URL || pgServer) {
    if (pgServer) process.env.BOSUN_TEST_PG_URL = pgServer.url;
    try {
      for (const workers of pgWorkers) {
        const pgEnv = await newEnv('postgres', QUIET);
        const processes: Served[] = [];
        try {
          processes.push(await serve(pgEnv, 'api'));
          processes.push(
            ...(await Promise.all(Array.from({ length: workers }, () => serve(pgEnv, 'worker')))),
          );
          const api = processes[0].url;
          await onboard(api, pkg.zip);
          log(`PostgreSQL, ${workers} worker(s): package onboarded; cycles`);
          const urls = processes.map((p) => p.url);
          const pids = () => processes.map((p) => p.child.pid ?? 0);
          const { result, share } = await cpuShare(
            { postgres: () => pidsNamed('postgres'), bosun: pids },
            () => dbCost(urls, () => cycles(api, pkg.vnfdId, instances)),
          );
          const { result: r, cost } = result;
          if (workers === 2) pg2 = r;
          rows.push([
            `PostgreSQL, API + ${workers} worker${workers > 1 ? 's' : ''}: ${instances} instances × 4 operations, ${CONCURRENCY} at a time`,
            `${r.opsPerS.toFixed(1)} ops/s`,
            `POST→COMPLETED p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms; ${perOp(cost, r.ops)}; CPU of the 2 cores: PostgreSQL ${pctOf(share.postgres)}, Bosun ${pctOf(share.bosun)}`,
          ]);
          if (workers === 2) {
            const c = await concurrentInstantiations(api, pkg.vnfdId, 100);
            pgConcurrent = c.wall;
            rows.push([
              'PostgreSQL, API + 2 workers: 100 concurrent instantiations',
              `${c.wall.toFixed(2)} s`,
              `POST→COMPLETED p50 ${c.p50.toFixed(0)} ms, p99 ${c.p99.toFixed(0)} ms`,
            ]);
          }
        } finally {
          for (const p of processes) await stop(p.child);
        }
      }
    } finally {
      pgServer?.stop();
    }
  }
}

// The targets of a production cluster, measured in this run.
if (sqliteCycles && pg2) {
  const verdict = (ok: boolean) => (ok ? 'met' : 'MISSED');
  rows.push([
    'Target: PostgreSQL (API + 2 workers) ops/s ≥ 2× SQLite',
    verdict(pg2.opsPerS >= 2 * sqliteCycles.opsPerS),
    `${pg2.opsPerS.toFixed(1)} vs 2 × ${sqliteCycles.opsPerS.toFixed(1)} = ${(2 * sqliteCycles.opsPerS).toFixed(1)} ops/s (${(pg2.opsPerS / sqliteCycles.opsPerS).toFixed(2)}×)`,
  ]);
  rows.push([
    'Target: PostgreSQL p50 POST→COMPLETED ≤ SQLite',
    verdict(pg2.p50 <= sqliteCycles.p50),
    `${pg2.p50.toFixed(0)} ms vs ${sqliteCycles.p50.toFixed(0)} ms`,
  ]);
}
if (sqliteConcurrent !== undefined && pgConcurrent !== undefined) {
  rows.push([
    'Target: PostgreSQL 100 concurrent instantiations ≤ SQLite',
    pgConcurrent <= sqliteConcurrent ? 'met' : 'MISSED',
    `${pgConcurrent.toFixed(2)} s vs ${sqliteConcurrent.toFixed(2)} s`,
  ]);
}

printRows('Bosun LCM benchmarks (simulated VIM, no simulated latency, no hook scripts)', rows);

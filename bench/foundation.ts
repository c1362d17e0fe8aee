/**
 * `npm run bench`: foundation benchmarks against real servers in their own processes, loaded
 * with autocannon from this one. The yardstick and Bosun are measured in alternating rounds
 * and the medians compared, so that drift in a shared machine's speed does not bias the ratio.
 * Prints a table with the targets and Tacker's measured numbers
 * (shared/reference/tacker-baseline.md).
 *
 * BOSUN_BENCH_DURATION (s per run, default 5), BOSUN_BENCH_ROUNDS (default 4),
 * BOSUN_BENCH_ROWS (default 50000).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import pg from 'pg';
import { startTempPostgres } from '../scripts/postgres.ts';

const duration = Number(process.env.BOSUN_BENCH_DURATION ?? '5');
const rounds = Number(process.env.BOSUN_BENCH_ROUNDS ?? '4');
const rowCount = Number(process.env.BOSUN_BENCH_ROWS ?? '50000');
const here = new URL('.', import.meta.url).pathname;
const V2 = { Version: '2.0.0' };

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Row extends Sample {
  name: string;
  connections: number;
  note: string;
}

async function startProcess(
  script: string,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(here, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url, child };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function sample(
  url: string,
  connections: number,
  headers: Record<string, string> = {},
): Promise<Sample> {
  const r = await autocannon({ url, connections, duration, headers });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.timeouts + r.non2xx,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function combine(samples: Sample[]): Sample {
  return {
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    errors: samples.reduce((n, s) => n + s.errors, 0),
  };
}

/** Measures each target once per round, targets interleaved, after a warm-up. */
async function interleaved(
  targets: { url: string; connections: number; headers?: Record<string, string> }[],
) {
  for (const t of targets)
    await autocannon({ url: t.url, connections: t.connections, duration: 1, headers: t.headers });
  const samples: Sample[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    // Each round starts at another target, so that no target always runs in the same slot.
    for (let k = 0; k < targets.length; k++) {
      const i = (k + round) % targets.length;
      const t = targets[i];
      samples[i].push(await sample(t.url, t.connections, t.headers));
    }
  }
  return samples.map(combine);
}

const dir = mkdtempSync(join(tmpdir(), 'bosun-bench-'));
const pgServer = await startTempPostgres();
const children: ChildProcess[] = [];
const rows: Row[] = [];
try {
  const admin = new pg.Client({ connectionString: pgServer.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bosun_bench');
  await admin.end();
  const bosunEnv = (url: string) => ({
    BOSUN_DATABASE_URL: url,
    BOSUN_SECURITY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BOSUN_BENCH_ROWS: String(rowCount),
  });
  const hello = await startProcess('servers/hello.ts');
  const sqlite = await startProcess('servers/bosun.ts', bosunEnv(`sqlite:${join(dir, 'bench.db')}`));
  const quiet = await startProcess('servers/bosun.ts', {
    ...bosunEnv(`sqlite:${join(dir, 'quiet.db')}`),
    BOSUN_LOG_ACCESS_LOG: 'false',
    BOSUN_BENCH_ROWS: '0',
  });
  const postgres = await startProcess(
    'servers/bosun.ts',
    bosunEnv(pgServer.url.replace(/\/postgres$/, '/bosun_bench')),
  );
  children.push(hello.child, sqlite.child, quiet.child, postgres.child);

  const [h, vs, vq, vp] = await interleaved([
    { url: `${hello.url}/`, connections: 10 },
    { url: `${sqlite.url}/vnflcm/api_versions`, connections: 10, headers: V2 },
    { url: `${quiet.url}/vnflcm/api_versions`, connections: 10, headers: V2 },
    { url: `${postgres.url}/vnflcm/api_versions`, connections: 10, headers: V2 },
  ]);
  rows.push({ name: 'fastify hello-world (yardstick)', connections: 10, ...h, note: '' });
  for (const [dialect, s] of [
    ['sqlite', vs],
    ['sqlite, log.accessLog false', vq],
    ['postgres', vp],
  ] as const) {
    const pct = ((s.rps / h.rps) * 100).toFixed(0);
    rows.push({
      name: `GET /vnflcm/api_versions [${dialect}]`,
      connections: 10,
      ...s,
      note: `${pct}% of hello-world (target ≥ 60%); ${(s.rps / 670).toFixed(0)}× Tacker's 670 req/s`,
    });
  }

  const lists: [string, string, number, string][] = [
    [`first page (100 of ${rowCount.toLocaleString('en')} rows)`, '', 1, 'target p99 < 20 ms'],
    [`first page (100 of ${rowCount.toLocaleString('en')} rows)`, '', 10, 'throughput at 10 connections'],
    [
      '  + filter pushed into SQL',
      `?filter=${encodeURIComponent('(eq,enabled,true);(gte,size,500)')}`,
      1,
      'target p99 < 20 ms',
    ],
    [
      '  + filter in memory, all_fields',
      `?filter=${encodeURIComponent('(eq,labels/tier,gold)')}&all_fields`,
      1,
      'target p99 < 20 ms',
    ],
  ];
  for (const [dialect, server] of [
    ['sqlite', sqlite],
    ['postgres', postgres],
  ] as const) {
    const results = await interleaved(
      lists.map(([, query, connections]) => ({
        url: `${server.url}/fixture/widgets${query}`,
        connections,
        headers: V2,
      })),
    );
    for (const [i, [name, , connections, note]] of lists.entries()) {
      rows.push({ name: `${name} [${dialect}]`, connections, ...results[i], note });
    }
  }
} finally {
  await Promise.all(children.map(stop));
  pgServer.stop();
}

const header = ['benchmark', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'note'];
const table = rows.map((r) => [
  r.name,
  String(r.connections),
  r.rps.toFixed(0),
  String(r.p50),
  String(r.p99),
  String(r.errors),
  r.note,
]);
const widths = header.map((hd, i) => Math.max(hd.length, ...table.map((t) => t[i].length)));
const line = (cells: string[]) =>
  cells
    .map((c, i) => c.padEnd(widths[i]))
    .join('  ')
    .trimEnd();
process.stdout.write(
  `\nBosun foundation benchmarks — autocannon on loopback, median of ${rounds} interleaved ${duration} s runs\n\n`,
);
process.stdout.write(
  `${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n${table.map(line).join('\n')}\n`,
);
const failures = rows.filter((r) => r.errors > 0);
if (failures.length)
  process.stdout.write(`\nWARNING: ${failures.length} benchmark(s) saw errors or non-2xx answers\n`);

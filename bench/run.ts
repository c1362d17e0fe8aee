/**
 * `npm run bench`: foundation benchmarks against real servers in their own processes, loaded
 * with autocannon from this one. Prints a table with the targets of the issue and Tacker's
 * measured numbers (shared/reference/tacker-baseline.md) for comparison.
 *
 * BOSUN_BENCH_DURATION (s, default 10), BOSUN_BENCH_ROWS (default 50000).
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

const duration = Number(process.env.BOSUN_BENCH_DURATION ?? '10');
const here = new URL('.', import.meta.url).pathname;

interface Row {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
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
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { url, child };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function load(
  name: string,
  url: string,
  connections: number,
  headers: Record<string, string> = {},
  note = '',
): Promise<Row> {
  // Warm-up, then the measured run.
  await autocannon({ url, connections, duration: 1, headers });
  const r = await autocannon({ url, connections, duration, headers });
  const errors = r.errors + r.timeouts + r.non2xx;
  return { name, connections, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors, note };
}

const rows: Row[] = [];
const V2 = { Version: '2.0.0' };

const hello = await startProcess('servers/hello.ts');
const helloRow = await load('fastify hello-world (yardstick)', `${hello.url}/`, 10);
rows.push(helloRow);
await stop(hello.child);

const sqliteDir = mkdtempSync(join(tmpdir(), 'bosun-bench-'));
const pgServer = await startTempPostgres();
try {
  const admin = new pg.Client({ connectionString: pgServer.url });
  await admin.connect();
  await admin.query('CREATE DATABASE bosun_bench');
  await admin.end();
  const targets = [
    { dialect: 'sqlite', url: `sqlite:${join(sqliteDir, 'bench.db')}` },
    { dialect: 'postgres', url: pgServer.url.replace(/\/postgres$/, '/bosun_bench') },
  ];
  for (const { dialect, url } of targets) {
    const env = {
      BOSUN_DATABASE_URL: url,
      BOSUN_SECURITY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      BOSUN_SECURITY_KEY_FILE: join(sqliteDir, 'key'),
    };
    const bosun = await startProcess('servers/bosun.ts', env);
    try {
      const versions = await load(
        `GET /vnflcm/api_versions [${dialect}]`,
        `${bosun.url}/vnflcm/api_versions`,
        10,
        V2,
      );
      versions.note = `${((versions.rps / helloRow.rps) * 100).toFixed(0)}% of hello-world (target ≥ 60%); Tacker 650–690 req/s`;
      rows.push(versions);
      const list = `${bosun.url}/fixture/widgets`;
      const page = await load(`first 100 of 50,000 rows [${dialect}]`, list, 1, V2, 'target p99 < 20 ms');
      rows.push(page);
      rows.push(await load(`first 100 of 50,000 rows [${dialect}]`, list, 10, V2, 'throughput'));
      const pushed = `${list}?filter=${encodeURIComponent('(eq,enabled,true);(gte,size,500)')}`;
      rows.push(await load(`  + filter pushed to SQL [${dialect}]`, pushed, 1, V2, 'target p99 < 20 ms'));
      const inMemory = `${list}?filter=${encodeURIComponent('(eq,labels/tier,gold)')}&all_fields`;
      rows.push(
        await load(`  + filter in memory, all_fields [${dialect}]`, inMemory, 1, V2, 'target p99 < 20 ms'),
      );
    } finally {
      await stop(bosun.child);
    }
  }
} finally {
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
const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i].length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
process.stdout.write(`\nBosun foundation benchmarks (${duration} s per run, autocannon on loopback)\n\n`);
process.stdout.write(
  `${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n${table.map(line).join('\n')}\n`,
);
const failures = rows.filter((r) => r.errors > 0);
if (failures.length)
  process.stdout.write(`\nWARNING: ${failures.length} run(s) had errors or non-2xx answers\n`);

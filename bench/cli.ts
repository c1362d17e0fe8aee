/**
 * `npm run bench -- cli`: how long the `bosun` command takes to start and answer, as an operator
 * runs it — `bin/bosun` as a process, the median (and min, max) of BOSUN_BENCH_RUNS runs (default
 * 10) after one warm-up run, as hyperfine reports it. `bosun vnf list` talks to a real
 * `bosun serve` on a throw-away SQLite database. Target: well under 0.5 s for every command.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBosun } from './support/bosun-process.ts';
import { printRows, type Row } from './support/report.ts';

const BOSUN = new URL('../bin/bosun', import.meta.url).pathname;
const runs = Number(process.env.BOSUN_BENCH_RUNS ?? '10');

/** Wall times in ms of `runs` runs of `bosun …args`, after one warm-up (file cache, JIT cache). */
function time(args: string[], env: Record<string, string>): number[] {
  const once = () => {
    const started = performance.now();
    const r = spawnSync(BOSUN, args, { env: { ...process.env, ...env }, encoding: 'utf8' });
    const ms = performance.now() - started;
    if (r.status !== 0) throw new Error(`bosun ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    return ms;
  };
  once();
  return Array.from({ length: runs }, once);
}

function row(name: string, samples: number[]): Row {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = (sorted[(sorted.length - 1) >> 1] + sorted[sorted.length >> 1]) / 2;
  const s = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
  return [
    name,
    `median ${s(median)}`,
    `min ${s(sorted[0])}, max ${s(sorted.at(-1) ?? 0)}, ${samples.length} runs (target < 0.5 s)`,
  ];
}

const dir = mkdtempSync(join(tmpdir(), 'bosun-bench-cli-'));
const server = await startBosun({
  BOSUN_DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}`,
  BOSUN_BLOBS_DIR: join(dir, 'blobs'),
  BOSUN_SECURITY_KEY_FILE: join(dir, 'secret.key'),
});
try {
  const client = { BOSUN_URL: server.url };
  printRows('bosun command start and answer (wall time per run)', [
    row('bosun --help', time(['--help'], {})),
    row('bosun version', time(['version'], {})),
    row('bosun vnf list (BOSUN_URL)', time(['vnf', 'list'], client)),
    row('bosun vnf list --help', time(['vnf', 'list', '--help'], {})),
    row('bosun package list (BOSUN_URL)', time(['package', 'list'], client)),
  ]);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * `npm test`: starts one PostgreSQL for the whole run (unless BOSUN_TEST_PG_URL names one),
 * then runs every test file with node:test, files in parallel, each on SQLite and PostgreSQL.
 * The files that work on the one shared OpenStack (mini-openstack) run one at a time beside the
 * others: they fill zones and hosts on purpose, and two at once would fail each other's
 * placements. Extra arguments are passed to `node --test` (e.g. a file or --test-name-pattern);
 * files named on the command line run as one parallel set. The web console is built first when
 * its sources changed (its browser tests load it), once, before any file could race to build it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { startTempPostgres, type TempPostgres } from './postgres.ts';

/** The test files that use the shared mini-openstack: those that import its helpers. */
const usesCloud = (file: string) =>
  /\/(mini-openstack|driver-fixture)\.ts['"]/.test(readFileSync(file, 'utf8'));
/**
 * A test on the real cloud takes minutes (a server boots in seconds, a stack update in tens of
 * them), several times longer while the other files load the machine.
 */
const CLOUD_TEST_TIMEOUT_MS = 900_000;

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));

execFileSync(process.execPath, [new URL('build-console.ts', import.meta.url).pathname, '--if-stale'], {
  stdio: 'inherit',
});

let pg: TempPostgres | undefined;
const env = { ...process.env };
if (!env.BOSUN_TEST_PG_URL) {
  pg = await startTempPostgres();
  env.BOSUN_TEST_PG_URL = pg.url;
  process.stdout.write(`test PostgreSQL at ${pg.url}\n`);
}

const children: ReturnType<typeof spawn>[] = [];

/** One `node --test` over `paths`; its output goes to ours, or is held until `held` is read. */
function nodeTest(
  paths: string[],
  concurrency: number,
  held?: Buffer[],
  timeoutMs = 120_000,
): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--test', `--test-concurrency=${concurrency}`, `--test-timeout=${timeoutMs}`, ...flags, ...paths],
    { stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit', env },
  );
  children.push(child);
  child.stdout?.on('data', (b: Buffer) => held?.push(b));
  child.stderr?.on('data', (b: Buffer) => held?.push(b));
  return new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const c of children) c.kill(signal);
  });
}

const concurrency = Math.max(2, availableParallelism());
let code: number;
if (files.length) {
  // Named cloud files keep the cloud's per-test time, as in the whole run.
  const cloudNamed = files.some((f) => f.endsWith('.test.ts') && usesCloud(f));
  code = await nodeTest(files, concurrency, undefined, cloudNamed ? CLOUD_TEST_TIMEOUT_MS : undefined);
} else {
  const all = globSync('test/**/*.test.ts');
  const cloud = all.filter(usesCloud);
  const rest = all.filter((f) => !cloud.includes(f));
  const held: Buffer[] = [];
  const [restCode, cloudCode] = await Promise.all([
    nodeTest(rest, concurrency),
    nodeTest(cloud, 1, held, CLOUD_TEST_TIMEOUT_MS),
  ]);
  process.stdout.write('\n== the tests on the shared OpenStack (one file at a time)\n');
  process.stdout.write(Buffer.concat(held));
  code = restCode || cloudCode;
}
pg?.stop();
process.exit(code);

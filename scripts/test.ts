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
import { globSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { startTempPostgres, type TempPostgres } from './postgres.ts';

/** The test files that use the shared mini-openstack. */
const CLOUD_FILES = ['test/vims/openstack/**/*.test.ts', 'test/cli/vim-openstack.test.ts'];

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
function nodeTest(paths: string[], concurrency: number, held?: Buffer[]): Promise<number> {
  const child = spawn(
    process.execPath,
    ['--test', `--test-concurrency=${concurrency}`, '--test-timeout=120000', ...flags, ...paths],
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
  code = await nodeTest(files, concurrency);
} else {
  const cloud = new Set(CLOUD_FILES.flatMap((p) => globSync(p)));
  const rest = globSync('test/**/*.test.ts').filter((f) => !cloud.has(f));
  const held: Buffer[] = [];
  const [restCode, cloudCode] = await Promise.all([
    nodeTest(rest, concurrency),
    nodeTest([...cloud], 1, held),
  ]);
  process.stdout.write('\n== the tests on the shared OpenStack (one file at a time)\n');
  process.stdout.write(Buffer.concat(held));
  code = restCode || cloudCode;
}
pg?.stop();
process.exit(code);

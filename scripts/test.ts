/**
 * `npm test`: starts one PostgreSQL for the whole run (unless BOSUN_TEST_PG_URL names one),
 * then runs every test file with node:test, files in parallel, each on SQLite and PostgreSQL.
 * Extra arguments are passed to `node --test` (e.g. a file or --test-name-pattern).
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { startTempPostgres, type TempPostgres } from './postgres.ts';

const args = process.argv.slice(2);
const files = args.filter((a) => !a.startsWith('-'));
const flags = args.filter((a) => a.startsWith('-'));

let pg: TempPostgres | undefined;
const env = { ...process.env };
if (!env.BOSUN_TEST_PG_URL) {
  pg = await startTempPostgres();
  env.BOSUN_TEST_PG_URL = pg.url;
  process.stdout.write(`test PostgreSQL at ${pg.url}\n`);
}

const concurrency = Math.max(2, availableParallelism());
const child = spawn(
  process.execPath,
  [
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=120000',
    ...flags,
    ...(files.length ? files : ['test/**/*.test.ts']),
  ],
  { stdio: 'inherit', env },
);
const stop = () => pg?.stop();
process.on('SIGINT', () => child.kill('SIGINT'));
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => {
  stop();
  process.exit(code ?? (signal ? 1 : 0));
});

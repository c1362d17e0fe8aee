import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from './temp.ts';

const here = (file: string) => new URL(`./${file}`, import.meta.url).href;

/**
 * A test file that uses every fixture making temporary folders, then fails: run in a process of
 * its own whose temp folder is empty to start with, it must leave it empty.
 */
const FAILING_FILE = `
import { test } from 'node:test';
import { startTestServer } from '${here('server.ts')}';
import { newServerEnv } from '${here('processes.ts')}';
import { freshDatabaseUrl } from '${here('databases.ts')}';
import { writeFixture } from '${here('csar-fixtures.ts')}';
import { createOpensslCa } from '${here('openssl-ca.ts')}';
import { tempDir } from '${here('temp.ts')}';

test('uses the fixtures, then fails', async () => {
  const server = await startTestServer('sqlite');
  await server.close();
  await newServerEnv('sqlite', 'bosun-leak-env-');
  await freshDatabaseUrl('sqlite');
  await writeFixture({ 'a.txt': 'a' });
  createOpensslCa('bosun-leak-ca-', 'ec').ca('ca', { days: 1, keyUsage: 'keyCertSign' });
  tempDir('bosun-leak-');
  throw new Error('this test fails on purpose');
});
`;

test('test fixtures leave no temporary folder behind, even when the test fails', async () => {
  const work = tempDir('bosun-temp-test-');
  const tmp = join(work, 'tmp');
  mkdirSync(tmp);
  const file = join(work, 'failing.test.ts');
  writeFileSync(file, FAILING_FILE);
  const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--test', file],
      // Not a child of this test run (node:test would refuse to run the file), a run of its own.
      { env: { ...process.env, NODE_TEST_CONTEXT: undefined, TMPDIR: tmp } },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
  assert.equal(result.code, 1, result.output);
  assert.match(result.output, /this test fails on purpose/);
  assert.deepEqual(readdirSync(tmp), []);
});

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DIALECTS, freshDatabaseUrl, type TestDialect } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { startTestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = join(import.meta.dirname, '../../bin/bosun');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment of a CLI run: only the test database and keys, no stray BOSUN_* settings. */
async function cliEnv(dialect: TestDialect) {
  const dir = tempDir('bosun-cli-');
  const url = await freshDatabaseUrl(dialect);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BOSUN_')) env[k] = v;
  env.BOSUN_DATABASE_URL = url;
  env.BOSUN_SECURITY_KEY_FILE = join(dir, 'key');
  if (dialect === 'postgres') env.BOSUN_SECURITY_ENCRYPTION_KEY = randomBytes(32).toString('base64');
  const run = (...args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile(BOSUN, args, { env, cwd: dir }, (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      });
    });
  return { url, run };
}

const token = (url: string, id: string, secret: string) =>
  http<Record<string, unknown>>(url, 'POST', '/oauth2/token', {
    headers: { authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` },
    body: { grant_type: 'client_credentials' },
  });

for (const dialect of DIALECTS) {
  describe(`bosun auth client on ${dialect}`, () => {
    test('add → list → the secret works on a server → remove → gone', async () => {
      const { url, run } = await cliEnv(dialect);
      const add = await run(
        'auth',
        'client',
        'add',
        '--project',
        'p1',
        '--scope',
        'vnflcm:v2:all',
        '--scope',
        'vnfpkgm:v1:readonly',
        '--description',
        'ci robot',
      );
      assert.equal(add.code, 0, add.stderr);
      const id = /client id:\s+(\S+)/.exec(add.stdout)?.[1];
      const secret = /client secret:\s+(\S+)/.exec(add.stdout)?.[1];
      assert.ok(id && secret, add.stdout);
      assert.match(add.stdout, /shown only once/);

      const listed = await run('auth', 'client', 'list', '--json');
      assert.equal(listed.code, 0, listed.stderr);
      const clients = JSON.parse(listed.stdout) as Record<string, unknown>[];
      assert.deepEqual(
        clients.map((c) => [c.clientId, c.project, c.scopes, c.description]),
        [[id, 'p1', ['vnflcm:v2:all', 'vnfpkgm:v1:readonly'], 'ci robot']],
      );
      assert.ok(!listed.stdout.includes(secret) && !listed.stdout.includes('scrypt'), 'no secret, no hash');
      const table = await run('auth', 'client', 'list');
      assert.match(table.stdout, new RegExp(`${id}\\s+p1\\s+vnflcm:v2:all vnfpkgm:v1:readonly\\s+ci robot`));
      assert.ok(!table.stdout.includes(secret));

      const server = await startTestServer(dialect, {
        databaseUrl: url,
        config: { auth: { mode: 'oauth2' } },
      });
      try {
        const granted = await token(server.url, id, secret);
        assert.equal(granted.status, 200, granted.text);
        const api = await http(server.url, 'GET', '/vnflcm/v2/api_versions', {
          headers: { authorization: `Bearer ${granted.body.access_token}` },
        });
        assert.equal(api.status, 200);

        const removed = await run('auth', 'client', 'remove', id);
        assert.equal(removed.code, 0, removed.stderr);
        assert.equal((await token(server.url, id, secret)).status, 401);
      } finally {
        await server.close();
      }
      const after = await run('auth', 'client', 'list', '--json');
      assert.deepEqual(JSON.parse(after.stdout), []);
      const again = await run('auth', 'client', 'remove', id);
      assert.equal(again.code, 1);
      assert.equal(again.stderr, `bosun: error: no client with id '${id}'\n`);
    });

    test('--json add, a chosen id, and a duplicate id', async () => {
      const { run } = await cliEnv(dialect);
      const addNfvo1 = [
        'auth',
        'client',
        'add',
        '--id',
        'nfvo-1',
        '--project',
        'p2',
        '--scope',
        'bosun:admin',
      ];
      const add = await run(...addNfvo1, '--json');
      assert.equal(add.code, 0, add.stderr);
      const body = JSON.parse(add.stdout) as Record<string, unknown>;
      assert.equal(body.clientId, 'nfvo-1');
      assert.equal(typeof body.clientSecret, 'string');
      assert.deepEqual(body.scopes, ['bosun:admin']);
      const dup = await run(...addNfvo1);
      assert.equal(dup.code, 1);
      assert.equal(dup.stderr, "bosun: error: a client with id 'nfvo-1' already exists\n");
    });

    test('an unknown scope: exit 1, one line on stderr naming it', async () => {
      const { run } = await cliEnv(dialect);
      const r = await run('auth', 'client', 'add', '--project', 'p1', '--scope', 'vnflcm:v2:everything');
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      const lines = r.stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, r.stderr);
      assert.match(
        lines[0],
        /^bosun: error: unknown scope 'vnflcm:v2:everything'; valid scopes: .*vnflcm:v2:all/,
      );
      const listed = await run('auth', 'client', 'list', '--json');
      assert.deepEqual(JSON.parse(listed.stdout), []);
    });

    test('a bad project id and a missing --project: exit 1', async () => {
      const { run } = await cliEnv(dialect);
      const bad = await run('auth', 'client', 'add', '--project', 'a/b', '--scope', 'vnflcm:v2:all');
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /invalid project id 'a\/b'/);
      const missing = await run('auth', 'client', 'add', '--scope', 'vnflcm:v2:all');
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /--project/);
    });
  });
}

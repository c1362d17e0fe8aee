import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { newServerEnv, serveProcess, stop } from '../support/processes.ts';
import { startTestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const exec = promisify(execFile);

async function bosun(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await exec(BOSUN, args, { env: { PATH: process.env.PATH, ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('bosun CLI', () => {
  const dir = tempDir('bosun-cli-');
  const env = {
    BOSUN_DATABASE_URL: `sqlite:${join(dir, 'b.db')}`,
    BOSUN_SECURITY_KEY_FILE: join(dir, 'key'),
  };

  test('version, human and --json', async () => {
    const human = await bosun(['version']);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^bosun 0\.1\.0 \(node 24\./);
    assert.match(human.stdout, /\/vnflcm\/v2\s+2\.0\.0/);
    const json = JSON.parse((await bosun(['version', '--json'])).stdout);
    assert.equal(json.bosun, '0.1.0');
    assert.ok(json.apis.some((a: { api: string }) => a.api === '/vnfpkgm/v2'));
  });

  test('version --server: what the running server serves, from its api_versions', async () => {
    const server = await startTestServer('sqlite');
    try {
      const served = JSON.parse((await bosun(['version', '--server', '--json', '--url', server.url])).stdout);
      const local = JSON.parse((await bosun(['version', '--json'])).stdout);
      assert.equal(served.server, server.url);
      assert.deepEqual(served.apis, local.apis, 'a role-all server serves every API major of the registry');
      const human = await bosun(['version', '--server'], { BOSUN_URL: server.url });
      assert.match(human.stdout, new RegExp(`server ${server.url} serves:\n`));
      assert.match(human.stdout, /\/vnfpkgm\/v1\s+1\.3\.0\s+SOL005 v2\.6\.1/);
    } finally {
      await server.close();
    }
    const worker = await serveProcess(await newServerEnv('sqlite', 'bosun-cli-worker-'), 'worker');
    try {
      const r = await bosun(['version', '--server', '--url', worker.url]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /serves:\nno SOL API \(a worker-role process\)\n$/);
    } finally {
      await stop(worker.child);
    }
  });

  test('config show masks secrets; --env lists every variable', async () => {
    const shown = await bosun(['config', 'show', '--json'], {
      BOSUN_DATABASE_URL: 'postgres://bosun:hunter2@db/bosun',
      BOSUN_SECURITY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    });
    assert.equal(shown.code, 0, shown.stderr);
    assert.doesNotMatch(shown.stdout, /hunter2|AQEBAQ/);
    assert.equal(JSON.parse(shown.stdout).database.url, 'postgres://bosun:********@db/bosun');
    const vars = await bosun(['config', 'show', '--env']);
    assert.match(vars.stdout, /BOSUN_SERVER_PORT\s+server\.port\s+9890/);
  });

  test('db migrate applies, then has nothing to do', async () => {
    const first = await bosun(['db', 'migrate'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /sqlite: applied 0001-foundation/);
    const again = JSON.parse((await bosun(['db', 'migrate', '--json'], env)).stdout);
    assert.deepEqual(again.applied, []);
  });

  test('errors are one line on stderr and a non-zero exit', async () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [
        ['config', 'show'],
        { BOSUN_SERVER_PORT: 'x' },
        /^bosun: error: BOSUN_SERVER_PORT: 'x' is not a number\n$/,
      ],
      [['serve', '--role', 'chef'], {}, /^bosun: error: --role must be one of all, api, worker\n$/],
      [
        ['config', 'show', '-c', join(dir, 'nope.yaml')],
        {},
        /^bosun: error: .*nope\.yaml: cannot read configuration file/,
      ],
    ];
    for (const [args, extra, message] of cases) {
      const r = await bosun(args, extra);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, message);
    }
    const unknown = await bosun(['frobnicate']);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  });

  test('serve refuses an unsafe configuration before listening', async () => {
    const file = join(dir, 'open.yaml');
    writeFileSync(file, 'server:\n  bind: 0.0.0.0\n');
    const r = await bosun(['serve', '-c', file], env);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /server\.bind: '0\.0\.0\.0' is not a loopback address/);
  });

  test('serve starts, answers, and exits 0 on SIGTERM', async () => {
    const child = spawn(BOSUN, ['serve', '--port', '0'], { env: { PATH: process.env.PATH, ...env } });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line in: ${out}`)), 15000);
      child.stdout.on('data', () => {
        const m = out.match(/"url":"(http:\/\/[^"]+)"/);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
    });
    const r = await fetch(`${url}/vnflcm/api_versions`, { headers: { Version: '2.0.0' } });
    assert.equal(r.status, 200);
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const requestLine = lines.find((l) => l.url === '/vnflcm/api_versions' && l.status === 200);
    assert.ok(requestLine?.requestId, 'request log lines carry the request id');
    assert.ok(lines.some((l) => l.msg === 'shutting down'));
  });

  test('a command loads only its own modules: --help and the API commands load no server, database or VNFD code', async () => {
    const server = await startTestServer('sqlite');
    try {
      const trace = join(dir, 'modules.txt');
      const loaded = async (args: string[], extra: Record<string, string> = {}) => {
        const r = await bosun(args, {
          NODE_OPTIONS: `--import ${new URL('./module-trace.ts', import.meta.url).pathname}`,
          BOSUN_TEST_MODULE_TRACE: trace,
          ...extra,
        });
        assert.equal(r.code, 0, `bosun ${args.join(' ')}: ${r.stderr}`);
        return readFileSync(trace, 'utf8').split('\n');
      };
      // The API registry (a table in src/sol/, SOL data below every layer) is allowed.
      const heavy =
        /\/node_modules\/(fastify|kysely|pg|@aws-sdk|pkijs|asn1js|pino|yaml|@sinclair|jose|yauzl)\/|\/src\/(http|store|vnfd|lcm|notify|drivers|vims|packages|config)\//;
      const cases: [string[], Record<string, string>][] = [
        [['--help'], {}],
        [['vnf', 'list', '--help'], {}],
        [['serve', '--help'], {}],
        [['subscription', 'create', '--help'], {}],
        [['vnf', 'list'], { BOSUN_URL: server.url }],
        [['package', 'list', '--json'], { BOSUN_URL: server.url }],
      ];
      for (const [args, extra] of cases) {
        const modules = await loaded(args, extra);
        assert.ok(
          modules.some((m) => m.endsWith('/src/cli/program.ts')),
          'the trace sees the program',
        );
        assert.deepEqual(
          modules.filter((m) => heavy.test(m)),
          [],
          `bosun ${args.join(' ')}`,
        );
      }
      // The same trace sees a command that does need the server code.
      assert.ok((await loaded(['config', 'show', '--env'])).some((m) => m.includes('/src/config/')));
    } finally {
      await server.close();
    }
  });

  test('npm link puts bosun on the PATH: bin/bosun finds its checkout through the symlinks npm makes', async () => {
    const prefix = tempDir('bosun-npm-prefix-');
    const root = new URL('../..', import.meta.url).pathname;
    await exec('npm', ['link', '--no-audit', '--no-fund'], {
      cwd: root,
      env: { ...process.env, npm_config_prefix: prefix, npm_config_update_notifier: 'false' },
    });
    const { stdout } = await exec('bosun', ['version', '--json'], {
      cwd: prefix,
      env: { PATH: `${join(prefix, 'bin')}:${process.env.PATH}` },
    });
    assert.equal(JSON.parse(stdout).bosun, '0.1.0');
  });
});

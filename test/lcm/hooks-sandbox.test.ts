/**
 * The attack hooks were open to, as a test: a package's `instantiate_start` tries to read the
 * server's data folder, key file, database, configuration file and working folder, its
 * environment (where a cluster keeps BOSUN_DATABASE_URL and BOSUN_SECURITY_ENCRYPTION_KEY), and
 * the environment and memory maps of the server process and of every process it can see. The
 * server is a real `bosun serve` process set up as a deployment would be (on SQLite with its
 * generated key file, on PostgreSQL with the key in its environment). The hook gets nothing: the
 * operation ends with the hook's own error, and nothing secret is in it. On a host without bwrap
 * the server says so at start and hooks fail naming what the host needs: they never run
 * unsandboxed.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hookPackage } from '../http/vnflcm/hook-package.ts';
import { createInstance, INSTANTIATE, runTask } from '../http/vnflcm/lcm-support.ts';
import { onboard } from '../http/vnfpkgm/support.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';
import { type Served, serveProcess, stop } from '../support/processes.ts';
import { tempDir } from '../support/temp.ts';

/** Tries everything, reports each attempt in one line on stderr, and fails on its own terms. */
const ATTACK = `import json, os, sys
data = json.load(sys.stdin)
a = (data.get('request') or {}).get('additionalParams', {}).get('attack') or {}
report = []
def attempt(name, fn):
    try:
        got = fn()
        report.append('%s: READ %r' % (name, got[:200]))
    except Exception as e:
        report.append('%s: denied (%s)' % (name, type(e).__name__))
def read(path):
    with open(path, 'rb') as f:
        return f.read()
attempt('dataDir', lambda: os.listdir(a['dataDir']))
attempt('keyFile', lambda: read(a['keyFile']))
attempt('database', lambda: read(a['database']))
attempt('configFile', lambda: read(a['configFile']))
attempt('serverCwd', lambda: os.listdir(a['cwd']))
attempt('serverEnviron', lambda: read('/proc/%d/environ' % a['serverPid']))
attempt('serverMaps', lambda: read('/proc/%d/maps' % a['serverPid']))
attempt('postgresSockets', lambda: os.listdir('/var/run/postgresql'))
leaked = [k for k in os.environ if k.startswith('BOSUN_') and not k.startswith('BOSUN_HOOK')]
report.append('environment: ' + ('READ %r' % leaked if leaked else 'denied (clean)'))
for pid in sorted(p for p in os.listdir('/proc') if p.isdigit()):
    try:
        env = read('/proc/%s/environ' % pid).split(b'\\0')
    except Exception:
        continue
    names = [e.split(b'=')[0] for e in env if e.startswith(b'BOSUN_') and not e.startswith(b'BOSUN_HOOK')]
    if names:
        report.append('environ of pid %s: READ %r' % (pid, names))
sys.stderr.write('\\n'.join(report) + '\\nnothing to steal here\\n')
sys.exit(1)
`;

const ATTEMPTS = [
  'dataDir',
  'keyFile',
  'database',
  'configFile',
  'serverCwd',
  'serverEnviron',
  'serverMaps',
  'postgresSockets',
  'environment',
];

for (const dialect of DIALECTS) {
  describe(`hook sandbox against a hostile package (${dialect})`, () => {
    let served: Served;
    let dir: string;
    let secrets: string[];
    let vnfdId: string;
    before(async () => {
      dir = tempDir('bosun-hook-attack-');
      const canary = `canary-${randomBytes(8).toString('hex')}`;
      writeFileSync(join(dir, 'bosun.yaml'), `# ${canary}\nlog:\n  level: info\n`);
      const key = randomBytes(32).toString('base64');
      const databaseUrl =
        dialect === 'sqlite' ? `sqlite:${join(dir, 'bosun.db')}` : await freshDatabaseUrl('postgres');
      served = await serveProcess({ databaseUrl, blobsDir: join(dir, 'blobs'), key }, 'all', {
        BOSUN_CONFIG: join(dir, 'bosun.yaml'),
        BOSUN_SECURITY_KEY_FILE: join(dir, 'secret.key'),
        // SQLite as on a single node: the key generated into the data folder; PostgreSQL as in a cluster: in the environment.
        BOSUN_SECURITY_ENCRYPTION_KEY: dialect === 'sqlite' ? '' : key,
      });
      secrets = [
        canary,
        dialect === 'sqlite' ? readFileSync(join(dir, 'secret.key'), 'utf8').trim() : key,
        ...(dialect === 'postgres' ? [databaseUrl, new URL(databaseUrl).pathname.slice(1)] : []),
      ];
      const variant = await hookPackage(ATTACK);
      const pkg = await onboard(served.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      vnfdId = variant.vnfdId;
    });
    after(() => stop(served.child));

    test('the hook reads nothing of Bosun; the operation fails with its own error, not a leak', async () => {
      const inst = await createInstance(served.url, vnfdId);
      const op = await runTask(served.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        additionalParams: {
          attack: {
            dataDir: dir,
            keyFile: join(dir, 'secret.key'),
            database: join(dir, 'bosun.db'),
            configFile: join(dir, 'bosun.yaml'),
            cwd: process.cwd(),
            serverPid: served.child.pid,
          },
        },
      });
      assert.equal(op.operationState, 'FAILED_TEMP');
      assert.equal(op.error?.step, 'start-hook');
      const detail = op.error?.detail ?? '';
      assert.match(detail, /^Hook instantiate_start \(Scripts\/sample_script\.py\) exited with code 1: /);
      assert.match(detail, /nothing to steal here$/);
      const report = String(op.error?.stderr);
      for (const attempt of ATTEMPTS) assert.match(report, new RegExp(`^${attempt}: denied`, 'm'), report);
      assert.doesNotMatch(report, /: READ /, report);
      const everything = JSON.stringify(op);
      for (const secret of secrets) assert.ok(!everything.includes(secret), `leaked ${secret}`);
    });
  });
}

describe('hooks on a host without bwrap', () => {
  let served: Served;
  before(async () => {
    // The server's PATH has what bin/bosun needs and no bwrap.
    const bin = tempDir('bosun-no-bwrap-');
    for (const tool of ['readlink', 'dirname']) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const dir = tempDir('bosun-no-bwrap-data-');
    served = await serveProcess(
      {
        databaseUrl: `sqlite:${join(dir, 'bosun.db')}`,
        blobsDir: join(dir, 'blobs'),
        key: randomBytes(32).toString('base64'),
      },
      'all',
      { PATH: bin },
    );
  });
  after(() => stop(served.child));

  test('the server says so at start; a hook fails naming what the host needs, and never runs', async () => {
    const variant = await hookPackage(ATTACK);
    const pkg = await onboard(served.url, variant.zip);
    assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
    const op = await runTask(
      served.url,
      (await createInstance(served.url, variant.vnfdId)).id,
      'instantiate',
      INSTANTIATE,
    );
    assert.equal(op.operationState, 'FAILED_TEMP');
    assert.equal(op.error?.step, 'start-hook');
    assert.match(
      op.error?.detail ?? '',
      /^Hook instantiate_start \(Scripts\/sample_script\.py\) cannot run: Hooks run in a bubblewrap sandbox: the host needs bwrap \(Debian: apt-get install bubblewrap\).* bwrap is not installed \(not on the server's PATH/,
    );
    await served.logged(/"msg":"package hooks cannot run on this host"/);
    const logged = served
      .output()
      .split('\n')
      .find((l) => l.includes('"msg":"package hooks cannot run on this host"'));
    assert.ok(logged, served.output());
    assert.match(JSON.parse(logged).reason, /the host needs bwrap/);
  });
});

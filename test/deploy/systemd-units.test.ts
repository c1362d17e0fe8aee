/**
 * deploy/systemd/: the units pass `systemd-analyze verify` (with the checkout standing in for
 * /opt/bosun), their ExecStart lines name real `bosun` subcommands with flags the command line
 * accepts, the stop timeout covers the shutdown timeout, the sample environment file holds only
 * configuration variables, the migration unit's command runs for real on it, and no unit sets the
 * options that would break the bubblewrap sandbox of package hooks.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { envLeaves } from '../../src/config/env.ts';
import { ConfigSchema } from '../../src/config/schema.ts';
import { tempDir } from '../support/temp.ts';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const DIR = join(ROOT, 'deploy/systemd');
const SYSTEMD_ANALYZE = '/usr/bin/systemd-analyze';
const INSTANCE = '9901';

const units = readdirSync(DIR).filter((f) => f.endsWith('.service'));

/** The unit's settings, `Key` → values in order (a key may repeat). */
function settings(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of readFileSync(join(DIR, file), 'utf8').split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (m) out.set(m[1], [...(out.get(m[1]) ?? []), m[2]]);
  }
  return out;
}

const one = (file: string, key: string): string => {
  const values = settings(file).get(key);
  assert.equal(values?.length, 1, `${file}: ${key}= is set ${values?.length ?? 0} times`);
  return values[0];
};

/** The sample environment file as variables. */
function envFile(): Record<string, string> {
  const lines = readFileSync(join(DIR, 'bosun.env'), 'utf8').split('\n');
  return Object.fromEntries(
    lines
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

test('the units are the API, the templated worker and the migration', () => {
  assert.deepEqual(units.sort(), ['bosun-api.service', 'bosun-migrate.service', 'bosun-worker@.service']);
  assert.equal(one('bosun-migrate.service', 'Type'), 'oneshot');
  for (const server of ['bosun-api.service', 'bosun-worker@.service']) {
    assert.match(one(server, 'Requires'), /\bbosun-migrate\.service\b/);
    assert.match(one(server, 'After'), /\bbosun-migrate\.service\b/);
    assert.equal(one(server, 'Restart'), 'on-failure');
    assert.equal(one(server, 'KillSignal'), 'SIGTERM');
  }
});

test('systemd-analyze verify accepts every unit, with nothing to warn about', async () => {
  assert.ok(existsSync(SYSTEMD_ANALYZE), `${SYSTEMD_ANALYZE} is missing: install the systemd package`);
  const dir = tempDir('bosun-systemd-');
  const paths = units.map((unit) => {
    const text = readFileSync(join(DIR, unit), 'utf8')
      .replaceAll('/opt/bosun', ROOT)
      .replace(/^EnvironmentFile=.*$/m, `EnvironmentFile=${join(DIR, 'bosun.env')}`);
    const path = join(dir, unit.replace('@.service', `@${INSTANCE}.service`));
    writeFileSync(path, text);
    return path;
  });
  const r = await run(SYSTEMD_ANALYZE, ['verify', ...paths]).catch((err) => err);
  assert.equal(r.code ?? 0, 0, r.stderr);
  assert.equal(r.stderr, '');
});

test('each ExecStart names a bosun subcommand with flags it accepts', async () => {
  for (const unit of units) {
    const args = one(unit, 'ExecStart').replaceAll('%i', INSTANCE).split(/\s+/);
    assert.equal(args[0], '/opt/bosun/bin/bosun', unit);
    const subcommand = args
      .slice(1)
      .filter((a, i, all) => !a.startsWith('-') && !all[i - 1]?.startsWith('--'));
    const flags = args.filter((a) => a.startsWith('--'));
    const { stdout: help } = await run(join(ROOT, 'bin/bosun'), [...subcommand, '--help']);
    for (const flag of flags) assert.match(help, new RegExp(`\\s${flag}\\b`), `${unit}: ${flag}`);
    if (args.includes('--role')) {
      const role = args[args.indexOf('--role') + 1];
      assert.match(help, /--role <role>\s+all \| api \| worker/, unit);
      assert.ok(['api', 'worker'].includes(role), `${unit}: role ${role}`);
    }
  }
});

test('the stop timeout covers the shutdown timeout, and no unit breaks the hook sandbox', () => {
  const shutdownS = Number(envFile().BOSUN_SERVER_SHUTDOWN_TIMEOUT_MS) / 1000;
  for (const unit of ['bosun-api.service', 'bosun-worker@.service']) {
    assert.ok(Number(one(unit, 'TimeoutStopSec')) > shutdownS, unit);
  }
  for (const unit of units) {
    const s = settings(unit);
    // bubblewrap makes user, mount, PID and network namespaces for each hook.
    for (const key of ['RestrictNamespaces', 'PrivateUsers', 'SystemCallFilter', 'MemoryDenyWriteExecute'])
      assert.ok(!s.has(key), `${unit} sets ${key}=`);
    assert.equal(one(unit, 'NoNewPrivileges'), 'yes');
    assert.equal(one(unit, 'ProtectSystem'), 'strict');
    assert.match(one(unit, 'ReadWritePaths'), /\/var\/lib\/bosun/);
  }
});

test('the sample environment file holds configuration variables only, and the migration runs on it', async () => {
  const env = envFile();
  const known = new Set(envLeaves(ConfigSchema).map((l) => l.variable));
  assert.deepEqual(
    Object.keys(env).filter((v) => !known.has(v)),
    [],
  );
  // The migration unit's command, on the file's settings with a real (SQLite) database in place
  // of the placeholder URL: the configuration loads and the schema is migrated.
  const dir = tempDir('bosun-systemd-migrate-');
  const args = one('bosun-migrate.service', 'ExecStart').split(/\s+/).slice(1);
  const { stdout } = await run(join(ROOT, 'bin/bosun'), args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '',
      ...env,
      BOSUN_DATABASE_URL: `sqlite:${join(dir, 'bosun.db')}`,
      BOSUN_SECURITY_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    },
  });
  assert.ok(Array.isArray(JSON.parse(stdout).applied), stdout);
});

/**
 * `bosun status` as a real subprocess against a real server (oauth2, an api-role replica, so that
 * nothing claims the jobs): the replicas registered, alive or stale, and the queues with the
 * upload waiting for a worker; `--json` prints the admin API's answer; a token without the admin
 * scope, or none, is refused with one line on stderr and a non-zero exit.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { ClusterStatus } from '../../src/http/ops/cluster-status.ts';
import { startServer } from '../../src/http/server.ts';
import { createLogger } from '../../src/logging.ts';
import { PROCESS_OWNER } from '../../src/store/queue/owner.ts';
import { BOSUN_VERSION } from '../../src/version.ts';
import { addClient, tokenOf } from '../http/auth/oauth2-support.ts';
import { createPkg, putZip, SMALL_SAMPLE, sample } from '../http/vnfpkgm/support.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';
import { type TestServer, testConfig } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const exec = promisify(execFile);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function bosun(args: string[], env: Record<string, string>): Promise<Run> {
  try {
    const r = await exec(BOSUN, args, { env: { PATH: process.env.PATH ?? '', ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

for (const dialect of DIALECTS) {
  describe(`bosun status (${dialect})`, () => {
    let server: TestServer;
    let admin: string;
    const STALE_ID = 'gone-host:4242:abcdef';

    before(async () => {
      const config = testConfig(await freshDatabaseUrl(dialect), { auth: { mode: 'oauth2' } });
      const running = await startServer(config, {
        role: 'api',
        logger: createLogger(config.log.level, process.stderr),
      });
      server = { ...running, config, dialect };
      admin = await tokenOf(server, await addClient(server, ['bosun:admin']));
      // A replica that stopped refreshing its row a minute ago.
      const minuteAgo = new Date(Date.now() - 60_000).toISOString();
      await server.context.db.kysely
        .insertInto('replicas')
        .values({
          id: STALE_ID,
          role: 'worker',
          version: '0.0.9',
          hostname: 'gone-host',
          pid: 4242,
          started_at: minuteAgo,
          seen_at: minuteAgo,
        })
        .execute();
      // An upload no worker claims (this replica is api-only): the onboarding queue's backlog.
      const headers = { authorization: `Bearer ${admin}` };
      const pkg = await createPkg(server.url, headers);
      assert.equal((await putZip(server.url, pkg.id, sample(SMALL_SAMPLE), headers)).status, 202);
    });
    after(() => server.close());

    test('--json: the replicas, alive and stale, and every queue with its backlog', async () => {
      const r = await bosun(['status', '--json'], { BOSUN_URL: server.url, BOSUN_TOKEN: admin });
      assert.equal(r.code, 0, r.stderr);
      const status = JSON.parse(r.stdout) as ClusterStatus;
      const byId = new Map(status.replicas.map((x) => [x.id, x]));
      const self = byId.get(PROCESS_OWNER);
      assert.ok(self, r.stdout);
      assert.equal(self.role, 'api');
      assert.equal(self.version, BOSUN_VERSION);
      assert.equal(self.pid, process.pid);
      assert.equal(self.alive, true);
      assert.equal(byId.get(STALE_ID)?.alive, false);
      const onboarding = status.queues.find((q) => q.queue === 'onboarding');
      assert.equal(onboarding?.pending, 1);
      assert.ok(onboarding?.oldestSince && onboarding.oldestAgeSeconds >= 0, r.stdout);
      assert.deepEqual(
        status.queues.filter((q) => q.queue !== 'onboarding').map((q) => [q.queue, q.pending]),
        [
          ['lcm-v2', 0],
          ['lcm-v1', 0],
          ['notifications', 0],
        ],
      );
    });

    test('for a person: a table of replicas, the queues, and a warning when no replica runs jobs', async () => {
      const r = await bosun(['status'], { BOSUN_URL: server.url, BOSUN_TOKEN: admin });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^replicas: 1 alive, 1 stale\n/);
      assert.match(r.stdout, /id\s+role\s+version\s+host\s+last seen\s+state/);
      const line = (id: string) => r.stdout.split('\n').find((l) => l.startsWith(id)) ?? '';
      assert.match(
        line(PROCESS_OWNER),
        new RegExp(`\\s+api\\s+${BOSUN_VERSION}\\s+\\S+\\s+\\d+s ago\\s+alive$`),
      );
      assert.match(line(STALE_ID), /\s+worker\s+0\.0\.9\s+gone-host\s+(6\d|7\d)s ago\s+stale$/);
      assert.match(r.stdout, /\nqueues:\nqueue\s+pending\s+oldest waiting\n/);
      assert.match(line('onboarding'), /^onboarding\s+1\s+\d+s \(since \d{4}-\d\d-\d\dT/);
      assert.match(line('lcm-v2'), /^lcm-v2\s+0\s+-$/);
      assert.match(r.stdout, /warning: no alive replica runs the jobs \(role all or worker\)/);
    });

    test('the command loads no server, database or domain code', async () => {
      const trace = join(tempDir('bosun-status-trace-'), 'modules.txt');
      const r = await bosun(['status', '--json'], {
        BOSUN_URL: server.url,
        BOSUN_TOKEN: admin,
        NODE_OPTIONS: `--import ${new URL('./module-trace.ts', import.meta.url).pathname}`,
        BOSUN_TEST_MODULE_TRACE: trace,
      });
      assert.equal(r.code, 0, r.stderr);
      const modules = readFileSync(trace, 'utf8').split('\n');
      assert.ok(modules.some((m) => m.endsWith('/src/cli/commands/status.ts')));
      const heavy =
        /\/node_modules\/(fastify|kysely|pg|pino|@sinclair)\/|\/src\/(http|store|lcm|packages|notify|config)\//;
      assert.deepEqual(
        modules.filter((m) => heavy.test(m)),
        [],
      );
    });

    test('the admin scope only: another scope is refused, no token is refused', async () => {
      const tenant = await tokenOf(server, await addClient(server, ['vnflcm:v2:all']));
      const forbidden = await bosun(['status'], { BOSUN_URL: server.url, BOSUN_TOKEN: tenant });
      assert.notEqual(forbidden.code, 0);
      assert.equal(forbidden.stdout, '');
      assert.match(forbidden.stderr, /403/);
      const anonymous = await bosun(['status'], { BOSUN_URL: server.url });
      assert.notEqual(anonymous.code, 0);
      assert.match(anonymous.stderr, /401/);
    });
  });
}

/**
 * `bosun vim …` and `bosun sim …` as real subprocesses against a real server: the VIM registry
 * (credentials never printed), the simulated cloud's zones, hosts and servers, and fault
 * injection (zone exhaustion, host down/up, server crash, injected call faults, health), a VIM in
 * use refused deletion;
 * errors are one line on stderr with a non-zero exit.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { SIM_VIM_TYPE } from '../../src/vims/drivers/sim/config.ts';
import { createSimDriver } from '../../src/vims/drivers/sim/driver.ts';
import { openVim } from '../../src/vims/registry.ts';
import { createInstance, INSTANTIATE, onboardOnce, runTask } from '../http/vnflcm/lcm-support.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';
import { context, grantFor, instantiatePlan, MAIN_SAMPLE, sampleVnfd } from '../vims/plans.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const exec = promisify(execFile);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('bosun vim and bosun sim against a server', () => {
  let server: TestServer;
  let env: Record<string, string>;

  async function bosun(args: string[]): Promise<Run> {
    try {
      const r = await exec(BOSUN, args, { env: { PATH: process.env.PATH ?? '', ...env } });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }
  async function ok(args: string[]): Promise<Run> {
    const r = await bosun(args);
    assert.equal(r.code, 0, `bosun ${args.join(' ')}: ${r.stderr}`);
    return r;
  }
  const json = async <T>(args: string[]) => JSON.parse((await ok([...args, '--json'])).stdout) as T;

  before(async () => {
    server = await startTestServer('sqlite', { config: { sim: { operationDelayMs: 0 } } });
    env = { BOSUN_URL: server.url };
  });
  after(() => server.close());

  test('vim register, list, show, default, delete; credentials never printed', async () => {
    const listed = await json<{ name: string; isDefault: boolean }[]>(['vim', 'list']);
    assert.deepEqual(
      listed.map((v) => [v.name, v.isDefault]),
      [['bosun-sim', true]],
    );
    const made = await json<{ id: string; isDefault: boolean; interfaceInfo: unknown }>([
      'vim',
      'register',
      '--name',
      'lab',
      '--type',
      SIM_VIM_TYPE,
      '--project',
      'tenant-a',
      '--endpoint',
      'https://keystone.lab:5000/v3',
      '--access',
      'username=nfv',
      '--access',
      'password=s3cret-pass',
      '--extra',
      'zones=["nova"]',
      '--default',
    ]);
    assert.equal(made.isDefault, true);
    assert.deepEqual(made.interfaceInfo, { endpoint: 'https://keystone.lab:5000/v3' });
    const shown = await ok(['vim', 'show', made.id]);
    assert.match(shown.stdout, /vimType\s+BOSUN\.SIM\.V1/);
    assert.match(shown.stdout, /credentials\s+stored, sealed/);
    assert.match(shown.stdout, /extra\s+\{"zones":\["nova"\]\}/);
    const table = await ok(['vim', 'list', '--project', 'tenant-a']);
    assert.match(table.stdout, /lab\s+BOSUN\.SIM\.V1\s+tenant-a\s+yes\s+sealed/);
    for (const out of [shown.stdout, table.stdout, JSON.stringify(made)]) assert.ok(!out.includes('s3cret'));
    const opened = await server.context.db.kysely
      .selectFrom('vims')
      .select('sealed_secrets')
      .where('id', '=', made.id)
      .executeTakeFirstOrThrow();
    assert.ok(!opened.sealed_secrets?.includes('s3cret'));
    const sim =
      listed.length &&
      (await json<{ id: string; name: string }[]>(['vim', 'list'])).find((v) => v.name === 'bosun-sim');
    assert.ok(sim);
    assert.match(
      (await ok(['vim', 'default', sim.id, '--project', 'tenant-a'])).stdout,
      /is the default of project tenant-a/,
    );
    assert.match((await ok(['vim', 'delete', made.id])).stdout, /deleted VIM/);
    const gone = await bosun(['vim', 'show', made.id]);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /404 Not Found: VIM .* does not exist\./);
    const dup = await bosun([
      'vim',
      'register',
      '--name',
      'bosun-sim',
      '--type',
      SIM_VIM_TYPE,
      '--project',
      '*',
    ]);
    assert.match(dup.stderr, /409 Conflict: A VIM named bosun-sim/);
  });

  test('vim register takes Keystone flags, the password from a file or the environment only; show reads zones and free capacity live', async () => {
    const dir = tempDir('bosun-vim-cli-');
    const passwordFile = join(dir, 'password');
    writeFileSync(passwordFile, 'file-pass-123\n');
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    const keystone = [
      '--auth-url',
      'https://keystone.lab:5000/v3',
      '--username',
      'nfv',
      '--project-name',
      'nfv-project',
    ];
    const made = await json<{ id: string; zones: string[]; interfaceInfo: unknown }>([
      'vim',
      'register',
      '--name',
      'keystone-flags',
      '--type',
      SIM_VIM_TYPE,
      '--project',
      'tenant-k',
      ...keystone,
      '--user-domain',
      'users',
      '--region',
      'RegionTwo',
      '--password-file',
      passwordFile,
      '--ca-bundle',
      caFile,
    ]);
    assert.deepEqual(
      made.interfaceInfo,
      { endpoint: 'https://keystone.lab:5000/v3' },
      'the CA bundle is sealed with the secrets',
    );
    const opened = await openVim(server.context.db, server.context.box, made.id);
    assert.deepEqual(opened?.accessInfo, {
      username: 'nfv',
      password: 'file-pass-123',
      project: 'nfv-project',
      projectDomain: 'Default',
      userDomain: 'users',
      region: 'RegionTwo',
    });
    assert.match(String(opened?.interfaceInfo.ssl_ca_cert), /^-----BEGIN CERTIFICATE-----/);

    // The environment, when no file is given.
    env.BOSUN_VIM_PASSWORD = 'env-pass-456';
    try {
      const fromEnv = await json<{ id: string }>([
        'vim',
        'register',
        '--name',
        'keystone-env',
        '--type',
        SIM_VIM_TYPE,
        ...keystone,
      ]);
      assert.equal(
        (await openVim(server.context.db, server.context.box, fromEnv.id))?.accessInfo?.password,
        'env-pass-456',
      );
    } finally {
      delete env.BOSUN_VIM_PASSWORD;
    }
    // Neither, and no terminal to ask on: refused before anything is sent.
    const none = await bosun([
      'vim',
      'register',
      '--name',
      'keystone-none',
      '--type',
      SIM_VIM_TYPE,
      ...keystone,
    ]);
    assert.equal(none.code, 1);
    assert.match(
      none.stderr,
      /Password of nfv is needed: give it with --password-file FILE \(- for stdin\), in BOSUN_VIM_PASSWORD/,
    );
    assert.ok(!(await json<{ name: string }[]>(['vim', 'list'])).some((v) => v.name === 'keystone-none'));
    const noProject = await bosun([
      'vim',
      'register',
      '--name',
      'x',
      '--type',
      SIM_VIM_TYPE,
      '--username',
      'nfv',
    ]);
    assert.match(noProject.stderr, /--username needs --project-name/);

    // register printed the zones the VIM showed; show reads them live with free capacity.
    const printed = await ok([
      'vim',
      'register',
      '--name',
      'keystone-print',
      '--type',
      SIM_VIM_TYPE,
      ...keystone,
      '--password-file',
      passwordFile,
    ]);
    assert.match(
      printed.stdout,
      /^registered VIM .* \(keystone-print, BOSUN\.SIM\.V1\)\nzones: zone-a, zone-b/m,
    );
    const shown = await ok(['vim', 'show', made.id]);
    assert.match(shown.stdout, /zones\s+zone-a, zone-b/);
    assert.match(shown.stdout, /zone\s+host\s+state\s+vCPU free\s+RAM MiB free/);
    const hosts = await json<
      {
        name: string;
        zone: string;
        capacity: { vcpus: number; ramMb: number };
        used: { vcpus: number; ramMb: number };
      }[]
    >(['sim', 'host', 'list']);
    for (const h of hosts) {
      const free = `${h.capacity.vcpus - h.used.vcpus}/${h.capacity.vcpus}\\s+${h.capacity.ramMb - h.used.ramMb}/${h.capacity.ramMb}`;
      assert.match(shown.stdout, new RegExp(`${h.zone}\\s+${h.name}\\s+up\\s+${free}`));
    }
    assert.ok(!shown.stdout.includes('file-pass-123'));
    const asJson = await json<{ resources: { zones: { name: string }[] } }>(['vim', 'show', made.id]);
    assert.deepEqual(
      asJson.resources.zones.map((z) => z.name),
      ['zone-a', 'zone-b'],
    );
    const bare = await ok(['vim', 'show', made.id, '--no-resources']);
    assert.doesNotMatch(bare.stdout, /vCPU free/);
  });

  test('vim delete is refused while an instance uses the VIM', async () => {
    const pkg = await onboardOnce(server.url);
    const instance = await createInstance(server.url, String(pkg.vnfdId));
    assert.equal(
      (await runTask(server.url, instance.id, 'instantiate', INSTANTIATE)).operationState,
      'COMPLETED',
    );
    const sim = (await json<{ id: string; name: string }[]>(['vim', 'list'])).find(
      (v) => v.name === 'bosun-sim',
    );
    assert.ok(sim);
    const refused = await bosun(['vim', 'delete', sim.id]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(`409 Conflict: VIM ${sim.id} is used by 1 VNF instance \\(${instance.id}\\): terminate it`),
    );
    await runTask(server.url, instance.id, 'terminate', { terminationType: 'FORCEFUL' });
  });

  test('sim zones, hosts, servers, crash and health', async () => {
    const zones = await ok(['sim', 'zone', 'list']);
    assert.match(zones.stdout, /zone-a\s+4\/4 up\s+0\/128/);
    const vnfd = await sampleVnfd(MAIN_SAMPLE);
    const plan = instantiatePlan(vnfd);
    const instanceId = randomUUID();
    const vim = { id: 'default', vimType: SIM_VIM_TYPE };
    const driver = createSimDriver({ db: server.context.db, sim: server.config.sim });
    await driver.instantiate(
      context(vim, vnfd, {
        instanceId,
        grant: grantFor(
          plan.vnfcs.map((v) => v.id),
          'zone-a',
        ),
      }),
      plan,
    );

    const servers = await json<{ id: string; host: string; status: string }[]>([
      'sim',
      'server',
      'list',
      '--instance',
      instanceId,
    ]);
    assert.equal(servers.length, plan.vnfcs.length);
    assert.ok(servers.every((s) => s.status === 'ACTIVE'));
    const listed = await ok(['sim', 'server', 'list', '--zone', 'zone-a']);
    assert.match(listed.stdout, new RegExp(servers[0].id));

    const crashed = await ok(['sim', 'server', 'crash', servers[0].id, '--reason', 'kernel panic']);
    assert.match(crashed.stdout, /ERROR: crashed: kernel panic/);
    const health = await json<{ serverId: string; state: string; reason?: string }[]>([
      'sim',
      'health',
      '--instance',
      instanceId,
    ]);
    assert.deepEqual(
      health.find((h) => h.serverId === servers[0].id),
      {
        ...health.find((h) => h.serverId === servers[0].id),
        state: 'ERROR',
        reason: 'crashed: kernel panic',
      },
    );
    assert.ok(health.filter((h) => h.serverId !== servers[0].id).every((h) => h.state === 'ACTIVE'));

    const other = servers.find((s) => s.host !== servers[0].host) ?? servers[1];
    assert.match(
      (await ok(['sim', 'host', 'down', other.host])).stdout,
      new RegExp(`host ${other.host} down \\(\\d+ server`),
    );
    const hosts = await json<{ name: string; state: string }[]>(['sim', 'host', 'list', '--zone', 'zone-a']);
    assert.equal(hosts.find((h) => h.name === other.host)?.state, 'down');
    const during = await json<{ serverId: string; state: string }[]>([
      'sim',
      'health',
      '--instance',
      instanceId,
    ]);
    assert.equal(during.find((h) => h.serverId === other.id)?.state, 'ERROR');
    await ok(['sim', 'host', 'up', other.host]);
    const back = await json<{ serverId: string; state: string }[]>([
      'sim',
      'health',
      '--instance',
      instanceId,
    ]);
    assert.equal(back.find((h) => h.serverId === other.id)?.state, 'ACTIVE');

    const missing = await bosun(['sim', 'host', 'down', 'no-such-host']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr.trim().split('\n').length, 1);
    assert.match(missing.stderr, /404 Not Found: Host no-such-host does not exist\./);
    assert.match((await ok(['sim', 'flavor', 'list'])).stdout, /m1\.tiny\s+1\s+512\s+1/);
  });

  test('sim zone exhaustion and injected faults', async () => {
    assert.match((await ok(['sim', 'zone', 'exhaust', 'zone-b'])).stdout, /zone zone-b exhausted/);
    const zones = await json<{ name: string; exhausted: boolean }[]>(['sim', 'zone', 'list']);
    assert.equal(zones.find((z) => z.name === 'zone-b')?.exhausted, true);
    assert.match((await ok(['sim', 'zone', 'restore', 'zone-b'])).stdout, /zone zone-b restored/);

    const fault = await json<{ id: string; remaining: number; message: string }>([
      'sim',
      'fault',
      'add',
      '--kind',
      'server.create',
      '--fail',
      'No valid host was found. There are not enough hosts available.',
      '--count',
      '2',
    ]);
    assert.equal(fault.remaining, 2);
    await ok(['sim', 'fault', 'add', '--kind', 'port.create', '--hang', '--timeout', '100']);
    const listed = await ok(['sim', 'fault', 'list']);
    assert.match(listed.stdout, /server\.create\s+fail\s+2\s+No valid host was found/);
    assert.match(listed.stdout, /port\.create\s+hang\s+1\s+100/);
    assert.match((await ok(['sim', 'fault', 'remove', fault.id])).stdout, /removed fault/);
    assert.match((await ok(['sim', 'fault', 'clear'])).stdout, /removed 1 fault/);
    assert.match((await ok(['sim', 'fault', 'list'])).stdout, /no faults/);
    for (const [args, message] of [
      [['sim', 'fault', 'add', '--kind', 'server.explode', '--fail'], /--kind must be \* or one of/],
      [['sim', 'fault', 'add', '--kind', 'server.create'], /give either --fail \[message\] or --hang/],
      [
        ['sim', 'fault', 'add', '--kind', 'server.create', '--fail', '--timeout', '5'],
        /--timeout applies to --hang only/,
      ],
      [
        ['sim', 'fault', 'add', '--kind', '*', '--hang', '--count', '0'],
        /--count expects a positive integer/,
      ],
    ] as const) {
      const r = await bosun([...args]);
      assert.equal(r.code, 1, args.join(' '));
      assert.match(r.stderr, message);
    }
  });
});

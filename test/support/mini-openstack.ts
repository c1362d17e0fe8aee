/**
 * The real OpenStack the OpenStack driver's tests run against (mini-openstack, in shared/ beside
 * the repository; /work/shared on the developers' machines). `miniOpenStack()` makes sure it is
 * up — its up.sh is idempotent and answers in a fraction of a second when it is (a cold start
 * takes minutes; CI starts it before the tests) — once per test process, and gives tests the
 * admin and demo VIM connections from the environment up.sh prints. Tests never stop it: it is
 * shared; everything a test creates carries a unique name prefix and is removed by the test.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { OutboundPolicy } from '../../src/net/address-policy.ts';
import type { VimConnection } from '../../src/vims/contract.ts';
import { openStackClient } from '../../src/vims/drivers/openstack/client/client.ts';
import { describeOpenStackVim } from '../../src/vims/drivers/openstack/describe.ts';

const run = promisify(execFile);

export const OPENSTACK_VIM_TYPE = 'ETSINFV.OPENSTACK_KEYSTONE.V_3';

const candidates = [
  new URL('../../../shared/tools/mini-openstack/up.sh', import.meta.url).pathname,
  '/work/shared/tools/mini-openstack/up.sh',
];

export interface MiniOpenStack {
  /** The OS_* variables up.sh printed. */
  env: Record<string, string>;
  /** admin in project admin: needed for zones with hosts, hypervisors, hosts of servers. */
  admin: VimConnection;
  /** demo (member, heat_stack_owner) in project demo. */
  demo: VimConnection;
  /** The outbound policy allowing the cloud's loopback endpoints. */
  policy: OutboundPolicy;
}

let started: Promise<MiniOpenStack> | undefined;

/** mini-openstack, started when it is not up (as root: up.sh needs it). */
export function miniOpenStack(): Promise<MiniOpenStack> {
  started ??= start();
  return started;
}

async function start(): Promise<MiniOpenStack> {
  const upSh = candidates.find((c) => existsSync(c));
  if (!upSh) throw new Error(`mini-openstack's up.sh is missing (looked in ${candidates.join(', ')})`);
  const command = process.getuid?.() === 0 ? [upSh] : ['sudo', '-n', upSh];
  // A cold start takes 1-3 minutes on a busy machine; a fresh one also installs packages.
  const { stdout } = await run(command[0], command.slice(1), { timeout: 15 * 60_000, maxBuffer: 2 ** 20 });
  const env: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const m = /^export (OS_[A-Z_]+)=(.*)$/.exec(line.trim());
    if (m) env[m[1]] = m[2].replace(/^['"]|['"]$/g, '');
  }
  if (!env.OS_AUTH_URL || !env.OS_PASSWORD)
    throw new Error(`mini-openstack's up.sh printed no environment:\n${stdout}`);
  const connection = (user: string, project: string): VimConnection => ({
    id: `mini-openstack-${user}`,
    vimId: `mini-openstack-${user}-${randomUUID().slice(0, 8)}`,
    vimType: OPENSTACK_VIM_TYPE,
    interfaceInfo: { endpoint: env.OS_AUTH_URL },
    accessInfo: {
      username: user,
      password: env.OS_PASSWORD,
      project,
      projectDomain: env.OS_PROJECT_DOMAIN_NAME ?? 'Default',
      userDomain: env.OS_USER_DOMAIN_NAME ?? 'Default',
      region: env.OS_REGION_NAME ?? 'RegionOne',
    },
  });
  const cloud = {
    env,
    admin: connection(env.OS_USERNAME ?? 'admin', env.OS_PROJECT_NAME ?? 'admin'),
    demo: connection('demo', 'demo'),
    policy: new OutboundPolicy(['127.0.0.1', '::1', 'localhost']),
  };
  await unlimitedQuotas(cloud);
  return cloud;
}

/**
 * Nova's default quotas (20 cores, 10 servers a project) would make tests running side by side
 * fail on quota instead of on what they test (a full zone is Nova's scheduler's "No valid host").
 */
async function unlimitedQuotas(cloud: Omit<MiniOpenStack, never>): Promise<void> {
  const admin = openStackClient(cloud.admin, cloud.policy);
  for (const vim of [cloud.admin, cloud.demo]) {
    const projectId = await openStackClient(vim, cloud.policy).projectId();
    await admin.session.call('compute', `quota update of ${projectId}`, {
      method: 'PUT',
      path: `/os-quota-sets/${projectId}`,
      json: { quota_set: { cores: -1, ram: -1, instances: -1 } },
    });
  }
}

/** A name prefix unique to a test run, for everything a test creates in the shared cloud. */
export function testPrefix(what: string): string {
  return `bosun-test-${what}-${randomUUID().slice(0, 8)}`;
}

/**
 * The cloud's zones, the one with the most room first (the largest free vCPU and RAM on one of
 * its hosts): other tests share the cloud, and a test that is not about a full zone places its
 * servers where they fit.
 */
export async function zonesByRoom(cloud: MiniOpenStack): Promise<string[]> {
  const { zones } = await describeOpenStackVim(cloud.admin, cloud.policy);
  const room = (z: (typeof zones)[number]) =>
    Math.max(
      0,
      ...z.hosts
        .filter((h) => h.up)
        .map((h) => Math.min(h.vcpus - h.vcpusUsed, (h.ramMb - h.ramMbUsed) / 512)),
    );
  return [...zones].sort((a, b) => room(b) - room(a)).map((z) => z.name);
}

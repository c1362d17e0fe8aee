/**
 * A management driver's work, live, on SQLite and PostgreSQL: the ssh-command built-in driver
 * runs a command over real SSH (test/support/sshd.ts) on each VNFC at instantiate_end and
 * heal_end; the op occ's timeline has each of its phases (connect, run command) with the
 * command's output lines under the hook's step, in order; and `bin/bosun vnf heal ID --vnfc
 * VNFC --wait`, run as a subprocess, prints those phases and lines as they happen, then the
 * outcome; `bosun op show ID --timeline` prints the same after the fact.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brief, timeline } from '../http/timeline/timeline-support.ts';
import { TEST_HOOK_SCRIPT } from '../http/vnflcm/hook-package.ts';
import {
  createInstance,
  getInstance,
  INSTANTIATE,
  MAIN_SAMPLE,
  runTask,
} from '../http/vnflcm/lcm-support.ts';
import { sampleVariant } from '../http/vnflcm/sample-package.ts';
import { onboard } from '../http/vnfpkgm/support.ts';
import { DIALECTS } from '../support/databases.ts';
import { freePort } from '../support/ports.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { loopbackAddress, type Sshd, type SshUser, sshUser, startSshd } from '../support/sshd.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const SSH_COMMAND = '/usr/lib/bosun/mgmt-drivers/ssh-command';
const DF = 'Definitions/v2_sample3_df_simple.yaml';
/** What the command prints on each node: two lines on stdout, one on stderr. */
const COMMAND =
  'echo "configuring $(echo $SSH_CONNECTION | cut -d" " -f3)"; echo "node ready"; echo "a warning" >&2';

/** The main sample with instantiate_end and heal_end on the ssh-command driver. */
const sshPackage = () =>
  sampleVariant(MAIN_SAMPLE, {
    vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
    files: { 'Scripts/sample_script.py': TEST_HOOK_SCRIPT },
    edit: {
      [DF]: (text) =>
        text
          .replace(
            '          instantiate_end:\n            implementation: sample-script\n',
            '          instantiate_end:\n            implementation: ssh-driver\n          heal_end:\n            implementation: ssh-driver\n',
          )
          .replace(
            '      artifacts:\n        sample-script:\n',
            `      artifacts:\n        ssh-driver:\n          type: tosca.artifacts.Implementation.Python\n          file: ${SSH_COMMAND}\n        sample-script:\n`,
          ),
    },
  });

const ipData = (ip?: string) => ({
  cpProtocolData: [
    {
      layerProtocol: 'IP_OVER_ETHERNET',
      ipOverEthernet: {
        ipAddresses: [ip ? { type: 'IPV4', fixedAddresses: [ip] } : { type: 'IPV4', numDynamicAddresses: 1 }],
      },
    },
  ],
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `+1.2 s  what` → `what`. */
const untimed = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/^ *\+\d+\.\d s {2}/, ''))
    .map((l) => l.replace(/\(\d+\.\d s\)/g, '(…)'));

for (const dialect of DIALECTS) {
  describe(`a management driver's steps and output, live (${dialect})`, () => {
    let server: TestServer;
    let vnfdId: string;
    let user: SshUser;
    let port: number;
    const nodes: Sshd[] = [];
    before(async () => {
      user = sshUser();
      port = await freePort();
      for (let i = 0; i < 2; i++) nodes.push(await startSshd({ host: loopbackAddress(), port }));
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 } },
      });
      const variant = await sshPackage();
      const pkg = await onboard(server.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      vnfdId = variant.vnfdId;
    });
    after(async () => {
      for (const node of nodes) await node.stop();
      await server?.close();
    });

    const additionalParams = () => ({
      ssh: { username: user.name, password: user.password, port, attempts: 3, backoffMs: 50 },
      sshCommand: { cpdIds: ['VDU1_CP2', 'VDU2_CP2'], command: COMMAND },
    });

    function bosun(args: string[]): Promise<Run> {
      return new Promise((resolve) => {
        execFile(
          BOSUN,
          args,
          { env: { PATH: process.env.PATH ?? '', BOSUN_URL: server.url } },
          (err, stdout, stderr) =>
            resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    }

    test('instantiate_end and a heal: the timeline and bosun vnf heal --vnfc --wait show each phase and line of the driver', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const op = await runTask(server.url, inst.id, 'instantiate', {
        ...INSTANTIATE,
        extVirtualLinks: [
          { id: 'ext1', resourceId: 'net-ext1', extCps: [{ cpdId: 'VDU1_CP1', cpConfig: { c1: ipData() } }] },
          {
            id: 'ext2',
            resourceId: `net-ext2-${Math.random().toString(36).slice(2)}`,
            extCps: [
              { cpdId: 'VDU1_CP2', cpConfig: { c2: ipData(nodes[0]?.host) } },
              { cpdId: 'VDU2_CP2', cpConfig: { c3: ipData(nodes[1]?.host) } },
            ],
          },
        ],
        additionalParams: additionalParams(),
      });
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const vnfcs = (await getInstance(server.url, inst.id)).instantiatedVnfInfo?.vnfcResourceInfo ?? [];
      const vdu1 = vnfcs.find((v) => v.vduId === 'VDU1');
      assert.ok(vdu1);

      // The instantiate's timeline: the end hook's step holds, per VNFC, its phases and output lines.
      const events = (await timeline(server.url, op.id)).events;
      const start = events.findIndex((e) => brief(e) === 'step end-hook (instantiate_end) started');
      const end = events.findIndex((e) => brief(e) === 'step end-hook (instantiate_end) finished');
      assert.ok(start > 0 && end > start, events.map(brief).join('\n'));
      const driver = events.slice(start + 1, end);
      const perNode = (host: string) => [
        `driver instantiate_end connect to ${host}:${port} started`,
        `driver instantiate_end connect to ${host}:${port} finished`,
        'driver instantiate_end run command started',
        `output stdout configuring ${host}`,
        'output stdout node ready',
        'output stderr a warning',
        'driver instantiate_end run command finished',
      ];
      const hosts = driver
        .filter((e) => e.kind === 'driver' && e.status === 'started' && e.phase.startsWith('connect to '))
        .map((e) => (e.kind === 'driver' ? e.phase.replace(/^connect to (.+):\d+$/, '$1') : ''));
      assert.deepEqual([...hosts].sort(), [nodes[0]?.host, nodes[1]?.host].sort());
      assert.deepEqual(driver.map(brief), hosts.flatMap(perNode));
      // Each line says which VNFC it came from.
      for (const e of driver) assert.ok((e.kind === 'driver' || e.kind === 'output') && e.vnfcId, brief(e));

      // The heal of VDU1's VNFC, followed by the CLI: its driver's phases and lines as they happen.
      const vnfcInfoId = (await getInstance(server.url, inst.id)).instantiatedVnfInfo?.vnfcInfo?.find(
        (v) => v.vnfcResourceInfoId === vdu1.id,
      )?.id;
      assert.ok(vnfcInfoId);
      const request = join(tempDir('bosun-heal-live-'), 'heal.json');
      // The simulated VIM reports the untouched VDU2 as MODIFIED by a heal too: the command is for VDU1.
      const params = additionalParams();
      const heal = {
        additionalParams: { ...params, sshCommand: { ...params.sshCommand, vduIds: ['VDU1'] } },
      };
      writeFileSync(request, JSON.stringify(heal), { mode: 0o600 });
      const healed = await bosun([
        'vnf',
        'heal',
        inst.id,
        '--vnfc',
        vnfcInfoId,
        '--request-file',
        request,
        '--wait',
      ]);
      assert.equal(healed.code, 0, healed.stdout + healed.stderr);
      const host = nodes[0]?.host as string;
      const out = untimed(healed.stdout);
      const outcome = out.findIndex((l) => /^HEAL [0-9a-f-]{36}: COMPLETED after \d+\.\d s$/.test(l));
      assert.ok(outcome > 0, healed.stdout);
      assert.deepEqual(out.slice(0, outcome), [
        'STARTING',
        'grant …',
        'grant done (…)',
        'PROCESSING',
        'infra …',
        'infra done (…)',
        'end-hook heal_end …',
        `  connect to ${host}:${port} [${vdu1.id}] …`,
        `  connect to ${host}:${port} [${vdu1.id}] done (…)`,
        `  run command [${vdu1.id}] …`,
        `    | configuring ${host}`,
        '    | node ready',
        '    ! a warning',
        `  run command [${vdu1.id}] done (…)`,
        'end-hook heal_end done (…)',
        'COMPLETED',
      ]);
      // After the fact, op show --timeline prints the same lines under the op occ.
      const opId = /^HEAL ([0-9a-f-]{36}):/m.exec(healed.stdout)?.[1] as string;
      const shown = await bosun(['op', 'show', opId, '--timeline']);
      assert.equal(shown.code, 0, shown.stderr);
      const lines = untimed(shown.stdout);
      assert.deepEqual(lines.slice(lines.indexOf('timeline:') + 1), [
        ...out.slice(0, outcome).slice(0, -1),
        'COMPLETED',
      ]);
    });
  });
}

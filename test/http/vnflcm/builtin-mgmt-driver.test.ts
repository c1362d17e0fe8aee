/**
 * Built-in management drivers end to end, on the simulated VIM with real sshd nodes
 * (test/support/sshd.ts): the VNFD's Vnflcm artifacts name drivers by paths on the VNFM host —
 * Tacker's `vnflcm_noop.py` maps to the no-op driver, `ssh-command` to the driver that runs a
 * command on every new VNFC over SSH. The VNFCs' external CPs get the nodes' loopback addresses
 * as fixed addresses, so the driver reaches "its VMs" over real SSH and stores what they answered
 * in vnfcResourceInfo metadata. A failing command leaves FAILED_TEMP with its output and a retry
 * resumes at the hook; a strict host-key policy without known hosts refuses and rolls back; an
 * unknown driver path is named in the op occ's error; the SSH password is never shown or stored
 * in the clear; bad parameters are refused before any work.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { knownFingerprint } from '../../../src/drivers/mgmt/ssh/host-keys.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { freePort } from '../../support/ports.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { loopbackAddress, type Sshd, type SshUser, sshUser, startSshd } from '../../support/sshd.ts';
import { onboard } from '../vnfpkgm/support.ts';
import { TEST_HOOK_SCRIPT } from './hook-package.ts';
import {
  createInstance,
  getInstance,
  H,
  INSTANTIATE,
  MAIN_SAMPLE,
  runTask,
  startTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';
import { sampleVariant } from './sample-package.ts';

const NOOP = '/opt/stack/tacker/tacker/vnfm/mgmt_drivers/vnflcm_noop.py';
const SSH_COMMAND = '/usr/lib/bosun/mgmt-drivers/ssh-command';
const UNKNOWN = '/opt/stack/tacker/samples/mgmt_driver/no_such_mgmt.py';

/** The main sample with its hooks on built-in drivers (the others on the test's script). */
function builtinPackage() {
  const hooks: Record<string, string> = {
    instantiate_start: 'noop-driver',
    instantiate_end: 'ssh-driver',
    scale_end: 'ssh-driver',
    modify_information_start: 'unknown-driver',
  };
  return sampleVariant(MAIN_SAMPLE, {
    vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
    files: { 'Scripts/sample_script.py': TEST_HOOK_SCRIPT },
    edit: {
      'Definitions/v2_sample3_df_simple.yaml': (text) => {
        let out = text;
        for (const [hook, artifact] of Object.entries(hooks))
          out = out.replace(
            `          ${hook}:\n            implementation: sample-script\n`,
            `          ${hook}:\n            implementation: ${artifact}\n`,
          );
        return out.replace(
          '      artifacts:\n        sample-script:\n',
          `      artifacts:
        noop-driver:
          type: tosca.artifacts.Implementation.Python
          file: ${NOOP}
        ssh-driver:
          type: tosca.artifacts.Implementation.Python
          file: ${SSH_COMMAND}
        unknown-driver:
          type: tosca.artifacts.Implementation.Python
          file: ${UNKNOWN}
        sample-script:
`,
        );
      },
    },
  });
}

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

interface Vnfc {
  id: string;
  vduId: string;
  computeResource: { resourceId: string };
  metadata?: {
    sshHostKey?: { serverId: string; fingerprint: string };
    sshCommand?: { command: string; exitStatus: number; stdout: string; stderr: string; truncated: boolean };
  };
}

for (const dialect of DIALECTS) {
  describe(`built-in management drivers over real SSH (${dialect})`, () => {
    let server: TestServer;
    let vnfdId: string;
    let user: SshUser;
    let port: number;
    const nodes: Sshd[] = [];
    before(async () => {
      user = sshUser();
      port = await freePort();
      // One node per VDU (VDU1, VDU2), each on its own address and the same port, as VMs are.
      for (let i = 0; i < 2; i++) nodes.push(await startSshd({ host: loopbackAddress(), port }));
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 } },
      });
      const variant = await builtinPackage();
      const pkg = await onboard(server.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      vnfdId = variant.vnfdId;
    });
    after(async () => {
      for (const node of nodes) await node.stop();
      await server?.close();
    });

    /** The instantiate request: VDU1_CP2 and VDU2_CP2 on the nodes' addresses; the driver's parameters. */
    const instantiate = (ssh: object, sshCommand: object) => ({
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
      additionalParams: {
        ssh: { username: user.name, password: user.password, port, attempts: 3, backoffMs: 50, ...ssh },
        sshCommand: { cpdIds: ['VDU1_CP2', 'VDU2_CP2'], ...sshCommand },
      },
    });
    const vnfcs = async (id: string) =>
      ((await getInstance(server.url, id)).instantiatedVnfInfo?.vnfcResourceInfo ?? []) as Vnfc[];
    /** The simulated VIM's server ids of an instance. */
    const simServers = async (instanceId: string) =>
      (await http<{ id: string }[]>(server.url, 'GET', `/bosun/v1/sim/servers?instanceId=${instanceId}`)).body
        .map((s) => s.id)
        .sort();
    const opTask = (id: string, name: string) =>
      http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/${name}`, { headers: H });

    test('instantiate: the driver the VNFD names reaches each VM over SSH and stores what it answered in its metadata', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const op = await runTask(
        server.url,
        inst.id,
        'instantiate',
        instantiate(
          {},
          {
            upload: { path: join(user.home, 'greeting'), content: 'hello from bosun', mode: 0o600 },
            command: 'cat ~/greeting; echo " at $(echo $SSH_CONNECTION | cut -d" " -f3)"',
          },
        ),
      );
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const found = await vnfcs(inst.id);
      assert.deepEqual(found.map((v) => v.vduId).sort(), ['VDU1', 'VDU2']);
      for (const vnfc of found) {
        const node = nodes[vnfc.vduId === 'VDU1' ? 0 : 1] as Sshd;
        assert.equal(vnfc.metadata?.sshCommand?.stdout, `hello from bosun at ${node.host}\n`);
        assert.equal(vnfc.metadata?.sshCommand?.exitStatus, 0);
        assert.deepEqual(vnfc.metadata?.sshHostKey, {
          serverId: vnfc.computeResource.resourceId,
          fingerprint: knownFingerprint(node.hostPublicKey()),
        });
      }
      // The password is neither shown with the op occ nor stored in the clear.
      const shown = await http(server.url, 'GET', `${V2}/vnf_lcm_op_occs/${op.id}`, { headers: H });
      assert.doesNotMatch(JSON.stringify(shown.body), new RegExp(user.password));
      assert.equal(
        Object.hasOwn(
          (shown.body as { operationParams: { additionalParams: { ssh: object } } }).operationParams
            .additionalParams.ssh,
          'password',
        ),
        false,
      );
      const row = await server.context.db.kysely
        .selectFrom('vnf_lcm_op_occs_v2')
        .selectAll()
        .where('id', '=', op.id)
        .executeTakeFirstOrThrow();
      assert.doesNotMatch(JSON.stringify(row), new RegExp(user.password));
    });

    test('a failing command: FAILED_TEMP with its output; a retry resumes at the hook and completes', async () => {
      const marker = `ready-${Math.random().toString(36).slice(2)}`;
      const inst = await createInstance(server.url, vnfdId);
      const failed = await runTask(
        server.url,
        inst.id,
        'instantiate',
        instantiate(
          {},
          {
            command: `echo checking; test -f ~/${marker} || { echo "${marker} missing" >&2; exit 4; }; echo ok`,
          },
        ),
      );
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.step, 'end-hook');
      assert.equal(failed.error?.title, 'Mgmt driver execution failed');
      assert.match(
        failed.error?.detail ?? '',
        new RegExp(
          `instantiate_end \\(built-in driver ssh-command\\): VNFC .* at 127\\.[0-9.]+: The command on .* exited with status 4: ${marker} missing`,
        ),
      );
      assert.equal(failed.error?.stdout, 'checking\n');
      assert.equal(failed.error?.exitCode, 4);
      // While the operation may be retried, the password is kept sealed with it, never in the clear.
      const row = await server.context.db.kysely
        .selectFrom('vnf_lcm_op_occs_v2')
        .select('progress')
        .where('id', '=', failed.id)
        .executeTakeFirstOrThrow();
      assert.doesNotMatch(row.progress, new RegExp(user.password));
      const progress = JSON.parse(row.progress) as {
        outputs: { accept: { sshSecrets: { password: string } } };
      };
      assert.match(progress.outputs.accept.sshSecrets.password, /^v1\./);
      const servers = await simServers(inst.id);
      assert.equal(servers.length, 2);
      writeFileSync(join(user.home, marker), '');
      assert.equal((await opTask(failed.id, 'retry')).status, 202);
      const done = await waitOpOcc(server.url, failed.id);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      const after = await vnfcs(inst.id);
      // The retry resumed at the hook: the same servers, not built again.
      assert.deepEqual(await simServers(inst.id), servers);
      assert.deepEqual(after.map((v) => v.computeResource.resourceId).sort(), servers);
      for (const vnfc of after) assert.equal(vnfc.metadata?.sshCommand?.stdout, 'checking\nok\n');
    });

    test('strict host keys without known hosts: refused before logging in, and the operation rolls back', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const failed = await runTask(
        server.url,
        inst.id,
        'instantiate',
        instantiate({ hostKeyPolicy: 'strict' }, { command: 'true' }),
      );
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.match(
        failed.error?.detail ?? '',
        /is not known and the host-key policy is strict: give it in additionalParams\.ssh\.knownHosts/,
      );
      assert.equal((await opTask(failed.id, 'rollback')).status, 202);
      assert.equal((await waitOpOcc(server.url, failed.id)).operationState, 'ROLLED_BACK');
      // With the nodes' keys given, strict passes.
      const knownHosts = Object.fromEntries(nodes.map((n) => [n.host, n.hostPublicKey()]));
      const done = await runTask(
        server.url,
        inst.id,
        'instantiate',
        instantiate({ hostKeyPolicy: 'strict', knownHosts }, { command: 'true' }),
      );
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
    });

    test('a FORCEFUL cancel while the command runs kills it on the node and leaves FAILED_TEMP', async () => {
      const marker = `sleep 3${Math.floor(Math.random() * 9)}`;
      const running = () =>
        execFileSync('ps', ['-e', '-o', 'user:32=,args='])
          .toString()
          .split('\n')
          .filter((p) => p.startsWith(`${user.name} `) && p.includes(marker));
      const inst = await createInstance(server.url, vnfdId);
      const id = await startTask(server.url, inst.id, 'instantiate', instantiate({}, { command: marker }));
      while (running().length === 0) {
        const now = await waitOpOcc(server.url, id, ['PROCESSING', 'FAILED_TEMP', 'COMPLETED']);
        assert.equal(now.operationState, 'PROCESSING', JSON.stringify(now.error));
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(
        (
          await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/cancel`, {
            headers: H,
            body: { cancelMode: 'FORCEFUL' },
          })
        ).status,
        202,
      );
      const cancelled = await waitOpOcc(server.url, id);
      assert.equal(cancelled.operationState, 'FAILED_TEMP');
      assert.equal(cancelled.error?.step, 'end-hook');
      assert.match(cancelled.error?.detail ?? '', /was cancelled/);
      assert.deepEqual(running(), []);
      assert.equal((await opTask(id, 'rollback')).status, 202);
      assert.equal((await waitOpOcc(server.url, id)).operationState, 'ROLLED_BACK');
    });

    test('a VNFD naming a driver Bosun does not have: the op occ error names the path', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const made = await runTask(server.url, inst.id, 'instantiate', instantiate({}, { command: 'true' }));
      assert.equal(made.operationState, 'COMPLETED', JSON.stringify(made.error));
      const patched = await http<unknown>(server.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json' },
        body: { vnfInstanceDescription: 'changed' },
      });
      assert.equal(patched.status, 202);
      const opId = /vnf_lcm_op_occs\/([^/]+)$/.exec(String(patched.headers.get('location')))?.[1] as string;
      const op = await waitOpOcc(server.url, opId);
      assert.equal(op.operationState, 'FAILED_TEMP');
      assert.equal(op.error?.step, 'start-hook');
      assert.match(
        op.error?.detail ?? '',
        /modify_information_start: \/opt\/stack\/tacker\/samples\/mgmt_driver\/no_such_mgmt\.py is a management driver on the VNFM host, and Bosun has no built-in driver for no_such_mgmt\.py \(it knows the file names .*vnflcm_noop\.py.*ssh-command/,
      );
    });

    test('bad SSH or driver parameters are refused with 400 before any work', async () => {
      const inst = await createInstance(server.url, vnfdId);
      const start = (body: object) =>
        http<{ detail: string }>(server.url, 'POST', `${V2}/vnf_instances/${inst.id}/instantiate`, {
          headers: H,
          body,
        });
      const badPassword = await start(instantiate({ password: 5 }, { command: 'true' }));
      assert.equal(badPassword.status, 400);
      assert.match(badPassword.body.detail, /additionalParams\.ssh\/password is invalid/);
      const badKey = await start(
        instantiate({ knownHosts: { '127.0.0.9': 'not a key' } }, { command: 'true' }),
      );
      assert.equal(badKey.status, 400);
      assert.match(badKey.body.detail, /knownHosts\["127\.0\.0\.9"\] is neither a public key line/);
      const badCommand = await start(instantiate({}, { command: '' }));
      assert.equal(badCommand.status, 400);
      assert.match(badCommand.body.detail, /additionalParams\.sshCommand\/command is invalid/);
      assert.equal((await getInstance(server.url, inst.id)).instantiationState, 'NOT_INSTANTIATED');
    });
  });
}

/**
 * Running a built-in driver's hook on its own: the driver the host path names gets the
 * contract's input, the request's opened secrets and the operation's signal; a hook it does not
 * implement does nothing; its answer is checked against the contract as a script's; its failure
 * carries the facts it gave (long ones as their tail); the registry maps Tacker's and Bosun's
 * file names and refuses others by name.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BuiltinCall, BuiltinDriver } from '../../../../src/drivers/mgmt/builtin/driver.ts';
import { BuiltinDriverError } from '../../../../src/drivers/mgmt/builtin/driver.ts';
import { builtinFor, checkBuiltinParams } from '../../../../src/drivers/mgmt/builtin/registry.ts';
import { BuiltinHookError, runBuiltinHook } from '../../../../src/drivers/mgmt/builtin/run-builtin.ts';
import { HOOK_CONTRACT_VERSION, type HookInput } from '../../../../src/drivers/mgmt/hook-contract.ts';

const input = {
  contractVersion: HOOK_CONTRACT_VERSION,
  operation: 'heal_end',
  request: { vnfcInstanceId: ['c1'] },
  vnfInstance: { instantiatedVnfInfo: { vnfcResourceInfo: [{ id: 'c1', vduId: 'VDU1' }] } },
} as unknown as HookInput;

describe('built-in driver runtime', () => {
  const seen: BuiltinCall[] = [];
  const driver: BuiltinDriver = {
    name: 'probe',
    description: 'records its calls',
    hooks: {
      heal_end: async (call) => {
        seen.push(call);
        return { vnfcResourceInfo: [{ id: 'c1', metadata: { role: 'worker' } }] };
      },
      // Not the contract's shape: an unknown key.
      heal_start: async () => ({ vnfInstance: { metadata: {} }, bogus: 1 }) as never,
      scale_start: async () => {
        throw new BuiltinDriverError('node n1: drain failed', {
          host: '10.0.0.5',
          stderr: 'timed out',
          stdout: `${'x'.repeat(5000)}end`,
        });
      },
    },
  };
  const lookup = () => ({ driver });
  const call = (hook: string, signal = new AbortController().signal) =>
    runBuiltinHook({
      hook,
      path: '/opt/drivers/probe.py',
      input,
      secrets: { password: 'pw' },
      signal,
      lookup,
    });

  test('a hook gets the input, the secrets and the signal, and its answer is kept', async () => {
    const controller = new AbortController();
    const out = await call('heal_end', controller.signal);
    assert.deepEqual(out, { vnfcResourceInfo: [{ id: 'c1', metadata: { role: 'worker' } }] });
    assert.equal(seen[0]?.input, input);
    assert.deepEqual(seen[0]?.secrets, { password: 'pw' });
    assert.equal(seen[0]?.signal, controller.signal);
  });

  test('a hook the driver does not implement does nothing', async () => {
    assert.deepEqual(await call('terminate_end'), {});
  });

  test("an answer outside the contract fails like a script's", async () => {
    await assert.rejects(call('heal_start'), (err: BuiltinHookError) => {
      assert.ok(err instanceof BuiltinHookError);
      assert.match(err.message, /^Hook heal_start \(built-in driver probe\): .*bogus/);
      return true;
    });
  });

  test("a driver's failure carries its facts", async () => {
    await assert.rejects(call('scale_start'), (err: BuiltinHookError) => {
      assert.equal(err.message, 'Hook scale_start (built-in driver probe): node n1: drain failed');
      assert.deepEqual(err.facts, {
        hook: 'scale_start',
        artifact: '/opt/drivers/probe.py',
        driver: 'probe',
        host: '10.0.0.5',
        stderr: 'timed out',
        // Long output is kept as its tail.
        stdout: `…${'x'.repeat(2045)}end`,
      });
      return true;
    });
  });

  test('the registry maps file names, and names the known ones for another', () => {
    const name = (path: string) => {
      const found = builtinFor(path);
      return 'driver' in found ? found.driver.name : found.unknown;
    };
    assert.equal(name('/opt/stack/tacker/tacker/vnfm/mgmt_drivers/vnflcm_noop.py'), 'noop');
    assert.equal(name('/usr/lib/bosun/mgmt-drivers/ssh-command'), 'ssh-command');
    assert.equal(
      name('/opt/stack/tacker/samples/mgmt_driver/kubernetes/kubernetes_mgmt.py'),
      'kubernetes-cluster',
    );
    assert.equal(name('/opt/x/Scripts/kubernetes_mgmt_v2.py'), 'kubernetes-cluster');
    assert.match(
      name('/opt/x/kubernetes_mgmt_v9.py'),
      /^\/opt\/x\/kubernetes_mgmt_v9\.py is a management driver on the VNFM host, and Bosun has no built-in driver for kubernetes_mgmt_v9\.py \(it knows the file names vnflcm_noop\.py, noop, ssh-command, ssh_command\.py, kubernetes_mgmt\.py, kubernetes_mgmt_v2\.py, kubernetes-cluster\)/,
    );
  });

  test("each driver's own parameters are checked when present", () => {
    assert.doesNotThrow(() => checkBuiltinParams({ other: 1 }));
    assert.doesNotThrow(() => checkBuiltinParams(undefined));
    assert.throws(
      () => checkBuiltinParams({ sshCommand: { command: 'x', sudo: 'yes' } }),
      /additionalParams\.sshCommand\/sudo is invalid/,
    );
    const k8s = {
      master_node: { vdu_id: 'VDU2', ssh_cp_name: 'CP2' },
      worker_node: { vdu_id: 'VDU1', ssh_cp_name: 'CP2' },
      haproxy: { ssh_ip: '192.0.2.10' },
    };
    assert.doesNotThrow(() => checkBuiltinParams({ k8s_cluster_installation_param: k8s }));
    assert.throws(
      () =>
        checkBuiltinParams({
          k8s_cluster_installation_param: { ...k8s, master_node: { ...k8s.master_node, password: 'secret' } },
        }),
      /k8s_cluster_installation_param\.master_node\.password is not accepted: give the nodes' password in additionalParams\.ssh\.password/,
    );
    assert.throws(
      () =>
        checkBuiltinParams({
          k8s_cluster_installation_param: { ...k8s, haproxy: { ssh_ip: '192.0.2.10; rm -rf /' } },
        }),
      /additionalParams\.k8s_cluster_installation_param\/haproxy\/ssh_ip is invalid/,
    );
    assert.throws(
      () =>
        checkBuiltinParams({
          k8s_cluster_installation_param: { ...k8s, etcd: { data_dir: '/var/lib/$(reboot)' } },
        }),
      /additionalParams\.k8s_cluster_installation_param\/etcd\/data_dir is invalid/,
    );
    assert.throws(
      () => checkBuiltinParams({ ssh: { username: 'a b' } }),
      /additionalParams\.ssh\/username is invalid/,
    );
  });
});

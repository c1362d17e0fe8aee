/**
 * What the operator decides about hooks, through a real server: a VIM's credentials reach hooks
 * only when `vims.<id>.exposeCredentialsToHooks` says so (the same VIM, the same database, before
 * and after the setting); `hooks.network: none` leaves a hook no network; `hooks.policy:
 * disabled` fails an operation at the hook its flavour declares.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { HookInput, HookVimConnection } from '../../src/drivers/mgmt/hook-contract.ts';
import { SIM_VIM_TYPE } from '../../src/vims/drivers/sim/config.ts';
import { type HookPeer, hookPackage, startHookPeer } from '../http/vnflcm/hook-package.ts';
import { LCM_TEST_CONFIG } from '../http/vnflcm/lcm-server.ts';
import { createInstance, INSTANTIATE, runTask } from '../http/vnflcm/lcm-support.ts';
import { onboard } from '../http/vnfpkgm/support.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const ACCESS = { username: 'hook-user', password: 'vim-secret-password', project: 'demo' };

for (const dialect of DIALECTS) {
  describe(`operator hook settings (${dialect})`, () => {
    let peer: HookPeer;
    let databaseUrl: string;
    let shared: Record<string, unknown>;
    let vimId: string;
    let vnfdId: string;
    let server: TestServer | undefined;

    /** A server on the same database, blobs and key, with `config` over the LCM test settings. */
    async function serve(config: Record<string, unknown> = {}) {
      await server?.close();
      server = await startTestServer(dialect, {
        databaseUrl,
        config: { ...LCM_TEST_CONFIG, ...shared, ...config },
      });
      return server;
    }

    before(async () => {
      peer = await startHookPeer();
      databaseUrl = await freshDatabaseUrl(dialect);
      const first = await serve();
      shared = { blobs: { dir: first.config.blobs.dir }, security: first.config.security };
      const vim = await http<{ id: string }>(first.url, 'POST', '/bosun/v1/vims', {
        body: {
          name: 'lab',
          vimType: SIM_VIM_TYPE,
          projectId: 'default',
          interfaceInfo: { endpoint: 'https://lab.example:5000/v3', password: 'interface-secret' },
          accessInfo: ACCESS,
        },
      });
      assert.equal(vim.status, 201, vim.text);
      vimId = vim.body.id;
      const variant = await hookPackage();
      const pkg = await onboard(first.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      vnfdId = variant.vnfdId;
    });
    after(async () => {
      await server?.close();
      await peer.close();
    });

    const instantiate = async (url: string, key: string, more: object = {}) =>
      runTask(url, (await createInstance(url, vnfdId)).id, 'instantiate', {
        ...INSTANTIATE,
        vimConnectionInfo: { lab: { vimId, vimType: SIM_VIM_TYPE } },
        additionalParams: { key, peer: peer.url, ...more },
      });
    const vimSeen = (key: string): HookVimConnection | undefined =>
      (peer.calls(key)[0]?.input as HookInput | undefined)?.vimConnectionInfo.lab;

    test('a VIM’s credentials reach hooks only when vims.<id>.exposeCredentialsToHooks is set', async () => {
      const hidden = await instantiate((server as TestServer).url, 'hidden');
      assert.equal(hidden.operationState, 'COMPLETED', JSON.stringify(hidden.error));
      assert.deepEqual(vimSeen('hidden'), {
        vimId,
        vimType: SIM_VIM_TYPE,
        interfaceInfo: { endpoint: 'https://lab.example:5000/v3' },
        extra: {},
      });
      const exposed = await serve({ vims: { [vimId]: { exposeCredentialsToHooks: true } } });
      const op = await instantiate(exposed.url, 'exposed');
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const seen = vimSeen('exposed');
      assert.deepEqual(seen?.accessInfo, ACCESS);
      assert.equal(seen?.interfaceInfo?.password, 'interface-secret');
    });

    test('hooks.network none: the hook cannot reach anything', async () => {
      const isolated = await serve({ hooks: { network: 'none' } });
      const op = await instantiate(isolated.url, 'isolated');
      assert.equal(op.operationState, 'FAILED_TEMP');
      assert.equal(op.error?.step, 'start-hook');
      assert.match(op.error?.detail ?? '', /URLError|Network is unreachable|Connection refused/);
      assert.deepEqual(peer.calls('isolated'), []);
    });

    test('hooks.policy disabled: an operation fails at the hook its flavour declares, naming the policy', async () => {
      const disabled = await serve({ hooks: { policy: 'disabled' } });
      const op = await instantiate(disabled.url, 'disabled');
      assert.equal(op.operationState, 'FAILED_TEMP');
      assert.equal(op.error?.step, 'start-hook');
      assert.equal(op.error?.policy, 'disabled');
      assert.match(
        op.error?.detail ?? '',
        /^Hook instantiate_start \(Scripts\/sample_script\.py\) is not run: hooks\.policy is disabled on this VNFM/,
      );
      assert.deepEqual(peer.calls('disabled'), []);
    });
  });
}

/**
 * A Tacker CNF package through the whole server on a Kubernetes VIM (the test API server; no
 * real cluster here): test_cnf_heal onboarded, the VIM registered through the admin API (checked
 * against the API server), an instance instantiated over /vnflcm/v2 with Tacker's
 * additionalParams — its pods, as kubectl lists them, are its vnfcResourceInfo —, a pod deleted
 * behind Bosun's back read back by the on-demand sync, and terminate leaving nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LABELS } from '../../../src/vims/drivers/kubernetes/names.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { type KubeApi, startKubeApi } from '../../support/kube-api/index.ts';
import { type Kubectl, kubectlFor } from '../../support/kube-api/kubectl.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createInstance, getInstance, onboardOnce, runTask } from './lcm-support.ts';

const FILES = ['Files/kubernetes/deployment_heal_simple.yaml'];

for (const dialect of DIALECTS) {
  describe(`a Tacker CNF on Kubernetes through the API (${dialect})`, () => {
    let api: KubeApi;
    let kubectl: Kubectl;
    let server: TestServer;
    before(async () => {
      api = await startKubeApi();
      kubectl = kubectlFor(api);
      server = await startTestServer(dialect, {
        config: {
          outbound: { allow: ['127.0.0.1'] },
          kubernetes: { pollIntervalMs: 50, rolloutTimeoutMs: 20000, syncIntervalMs: 0 },
        },
      });
    });
    after(async () => {
      await server.close();
      await api.stop();
    });

    const pods = async (instanceId: string) => {
      const r = await kubectl([
        'get',
        'pods',
        '-l',
        `${LABELS.instance}=${instanceId}`,
        '-o',
        'jsonpath={.items[*].metadata.name}',
      ]);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout.split(' ').filter(Boolean).sort();
    };
    const resources = (i: {
      instantiatedVnfInfo?: { vnfcResourceInfo?: { computeResource: { resourceId: string } }[] };
    }) => (i.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.computeResource.resourceId).sort();

    test('instantiate, drift sync, terminate', async () => {
      const vim = await http<{ id: string; zones?: string[] }>(server.url, 'POST', '/bosun/v1/vims', {
        body: {
          name: 'k8s',
          vimType: 'ETSINFV.KUBERNETES.V_1',
          interfaceInfo: { endpoint: api.url, ssl_ca_cert: api.caPem },
          accessInfo: { bearer_token: api.token },
        },
      });
      assert.equal(vim.status, 201, vim.text);
      const pkg = await onboardOnce(server.url, 'test_cnf_heal.zip');
      const instance = await createInstance(server.url, pkg.vnfdId as string);
      const done = await runTask(server.url, instance.id, 'instantiate', {
        flavourId: 'simple',
        vimConnectionInfo: { vim1: { vimId: vim.body.id, vimType: 'ETSINFV.KUBERNETES.V_1' } },
        additionalParams: { 'lcm-kubernetes-def-files': FILES, namespace: 'default' },
      });
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      const shown = await getInstance(server.url, instance.id);
      assert.equal(shown.instantiationState, 'INSTANTIATED');
      assert.equal(resources(shown).length, 2);
      assert.deepEqual(await pods(instance.id), resources(shown), 'kubectl lists the VNFCs');

      const unchanged = await http<{ synced: boolean; reason?: string }>(
        server.url,
        'POST',
        `/bosun/v1/vnf_instances/${instance.id}/sync`,
        { body: {} },
      );
      assert.deepEqual(unchanged.body, { synced: false, reason: 'UNCHANGED' });
      const [victim] = resources(shown);
      assert.equal((await kubectl(['delete', 'pod', victim, '--wait=true'])).code, 0);
      let now: string[] = [];
      for (let i = 0; i < 200 && (now.length !== 2 || now.includes(victim)); i++) {
        await new Promise((r) => setTimeout(r, 50));
        now = await pods(instance.id);
      }
      const synced = await http<{ synced: boolean }>(
        server.url,
        'POST',
        `/bosun/v1/vnf_instances/${instance.id}/sync`,
        { body: {} },
      );
      assert.equal(synced.body.synced, true, synced.text);
      const after = await getInstance(server.url, instance.id);
      assert.deepEqual(resources(after), now);
      assert.deepEqual(
        after.instantiatedVnfInfo?.vnfcResourceInfo?.map((v: { id: string }) => v.id).sort(),
        shown.instantiatedVnfInfo?.vnfcResourceInfo?.map((v: { id: string }) => v.id).sort(),
        'the VNFCs keep their ids',
      );

      const terminated = await runTask(server.url, instance.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal(terminated.operationState, 'COMPLETED', JSON.stringify(terminated.error));
      assert.deepEqual(await pods(instance.id), []);
      const missing = await http(
        server.url,
        'POST',
        '/bosun/v1/vnf_instances/00000000-0000-4000-8000-000000000000/sync',
        { body: {} },
      );
      assert.equal(missing.status, 404);
    });
  });
}

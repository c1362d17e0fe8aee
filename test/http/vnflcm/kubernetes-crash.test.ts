/**
 * Kill -9 of `bosun serve` in the middle of a Kubernetes rollout, on SQLite and PostgreSQL: a
 * change of package is PROCESSING, its new pod still pulling its image (held by the test API
 * server), when the server is SIGKILLed. A new server on the same database ends the op occ
 * FAILED_TEMP (a lease that expired while PROCESSING, as for every driver); its rollback goes back
 * to the old image and package. A second change killed the same way is retried once the image
 * arrives and completes. After each step the pods are the instance's VNFCs, one ReplicaSet runs
 * them, and no pod is left over or missing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LABELS } from '../../../src/vims/drivers/kubernetes/names.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startKubeApi } from '../../support/kube-api/index.ts';
import { kubectlFor } from '../../support/kube-api/kubectl.ts';
import {
  createInstance,
  getInstance,
  H,
  onboardOnce,
  runTask,
  startTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';
import { kill9, newEnv, type Served, serve, stop } from './processes.ts';

const FILES = ['Files/kubernetes/deployment.yaml'];

interface Item {
  metadata: { name: string };
  spec: {
    replicas?: number;
    containers?: { image: string }[];
    template?: { spec: { containers: { image: string }[] } };
  };
}

for (const dialect of DIALECTS) {
  describe(`kill -9 during a Kubernetes rollout (${dialect})`, () => {
    test('change of package killed mid-rollout: FAILED_TEMP after restart, rollback restores, a retry completes', async () => {
      const api = await startKubeApi();
      const kubectl = kubectlFor(api);
      const env = await newEnv(dialect, {
        BOSUN_OUTBOUND_ALLOW: '127.0.0.1',
        BOSUN_KUBERNETES_POLL_INTERVAL_MS: '50',
        BOSUN_KUBERNETES_ROLLOUT_TIMEOUT_MS: '600000',
        BOSUN_KUBERNETES_SYNC_INTERVAL_MS: '0',
      });
      const started: Served[] = [];
      const start = async () => {
        const served = await serve(env, 'all');
        started.push(served);
        return served;
      };
      try {
        let served = await start();
        const vim = await http<{ id: string }>(served.url, 'POST', '/bosun/v1/vims', {
          body: {
            name: 'k8s',
            vimType: 'ETSINFV.KUBERNETES.V_1',
            interfaceInfo: { endpoint: api.url, ssl_ca_cert: api.caPem },
            accessInfo: { bearer_token: api.token },
          },
        });
        assert.equal(vim.status, 201, vim.text);
        const from = await onboardOnce(served.url, 'sol_kubernetes_v2__test_cnf_container_update_before.zip');
        const to = await onboardOnce(served.url, 'sol_kubernetes_v2__test_cnf_container_update_after.zip');
        const instanceId = (await createInstance(served.url, from.vnfdId as string)).id;
        const made = await runTask(served.url, instanceId, 'instantiate', {
          flavourId: 'simple',
          vimConnectionInfo: { vim1: { vimId: vim.body.id, vimType: 'ETSINFV.KUBERNETES.V_1' } },
          additionalParams: { 'lcm-kubernetes-def-files': FILES, namespace: 'default' },
        });
        assert.equal(made.operationState, 'COMPLETED', JSON.stringify(made.error));

        const selector = `${LABELS.instance}=${instanceId}`;
        const list = async (kind: string): Promise<Item[]> => {
          const r = await kubectl(['get', kind, '-l', selector, '-o', 'json']);
          assert.equal(r.code, 0, r.stderr);
          return (JSON.parse(r.stdout) as { items: Item[] }).items;
        };
        const podImages = async () => (await list('pods')).map((p) => p.spec.containers?.[0]?.image).sort();
        /** The ReplicaSets that run pods, by image: exactly one once a rollout is over. */
        const running = async () =>
          (await list('replicasets'))
            .filter((rs) => (rs.spec.replicas ?? 0) > 0)
            .map((rs) => `${rs.spec.template?.spec.containers[0]?.image}×${rs.spec.replicas}`);
        /** The instance's VNFCs are the pods kubectl lists. */
        const agreed = async (url: string) => {
          const shown = await getInstance(url, instanceId);
          assert.deepEqual(
            (await list('pods')).map((p) => p.metadata.name).sort(),
            (shown.instantiatedVnfInfo?.vnfcResourceInfo ?? [])
              .map((v) => v.computeResource.resourceId)
              .sort(),
          );
          return shown;
        };
        const before = await agreed(served.url);
        const replicas = before.instantiatedVnfInfo?.vnfcResourceInfo?.length ?? 0;
        assert.ok(replicas > 0);
        assert.deepEqual(await running(), [`nginx×${replicas}`]);

        /** Starts the change with the new image held, and kills the server once a pod waits for it. */
        const killedMidRollout = async (url: string, child: Served['child']) => {
          api.cluster.failures.holdPull('cirros');
          const id = await startTask(url, instanceId, 'change_vnfpkg', {
            vnfdId: to.vnfdId,
            additionalParams: {
              upgrade_type: 'RollingUpdate',
              'lcm-kubernetes-def-files': FILES,
              vdu_params: [{ vdu_id: 'VDU1' }],
            },
          });
          for (let i = 0; !(await podImages()).includes('cirros'); i++) {
            assert.ok(i < 400, 'no pod of the new image was created');
            await sleep(50);
          }
          assert.equal((await waitOpOcc(url, id, ['PROCESSING'])).operationState, 'PROCESSING');
          await kill9(child);
          return id;
        };
        const failedByCrash = async (url: string, id: string) => {
          const failed = await waitOpOcc(url, id);
          assert.equal(failed.operationState, 'FAILED_TEMP');
          assert.match(
            failed.error?.detail ?? '',
            /stopped: its lease expired .* while the operation was PROCESSING, in step infra\. Retry it/,
          );
        };
        const task = async (url: string, id: string, name: string, state: string) => {
          const r = await http(url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/${name}`, { headers: H });
          assert.equal(r.status, 202, r.text);
          const ended = await waitOpOcc(url, id);
          assert.equal(ended.operationState, state, JSON.stringify(ended.error));
        };

        // Killed mid-rollout, restarted, rolled back while the new image still cannot arrive.
        const first = await killedMidRollout(served.url, served.child);
        served = await start();
        await failedByCrash(served.url, first);
        await task(served.url, first, 'rollback', 'ROLLED_BACK');
        const back = await agreed(served.url);
        assert.equal(back.vnfdId, from.vnfdId);
        assert.deepEqual(await podImages(), Array(replicas).fill('nginx'));
        assert.deepEqual(await running(), [`nginx×${replicas}`]);

        // Killed again, restarted; the image arrives and the retry completes the rollout.
        const second = await killedMidRollout(served.url, served.child);
        served = await start();
        await failedByCrash(served.url, second);
        api.cluster.failures.releasePull('cirros');
        await task(served.url, second, 'retry', 'COMPLETED');
        const now = await agreed(served.url);
        assert.equal(now.vnfdId, to.vnfdId);
        assert.deepEqual(await podImages(), Array(replicas).fill('cirros'));
        assert.deepEqual(await running(), [`cirros×${replicas}`]);
        assert.deepEqual(
          (now.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.id).sort(),
          (before.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.id).sort(),
          'the VNFCs keep their ids',
        );
      } finally {
        const [last, ...killed] = started.reverse();
        for (const s of killed) await kill9(s.child);
        if (last) await stop(last.child);
        await api.stop();
      }
    });
  });
}

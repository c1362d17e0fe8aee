/**
 * Every LCM operation of a CNF and its rollback through /vnflcm/v2 on a Kubernetes VIM (the test
 * API server), on both databases: instantiate, and an instantiate whose image cannot be pulled
 * rolled back to nothing; scale out and in, and a scale out that fails rolled back to the pods
 * before; heal of one VNFC and of the whole VNF; change of package (a rolling image update), and
 * one that fails rolled back to the old image and package; terminate graceful and forceful. After
 * each step the instance's VNFCs are the pods kubectl lists for it, and the op occ's
 * affectedVnfcs say what changed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LABELS } from '../../../src/vims/drivers/kubernetes/names.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { type KubeApi, startKubeApi } from '../../support/kube-api/index.ts';
import { type Kubectl, kubectlFor } from '../../support/kube-api/kubectl.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import {
  createInstance,
  getInstance,
  H,
  type Instance,
  type OpOcc,
  onboardOnce,
  runTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';

const HEAL_FILES = ['Files/kubernetes/deployment_heal_simple.yaml'];
const UPDATE_FILES = ['Files/kubernetes/deployment.yaml'];

interface Pod {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { containers: { image: string }[] };
}

for (const dialect of DIALECTS) {
  describe(`CNF operations and their rollbacks through the API (${dialect})`, () => {
    let api: KubeApi;
    let kubectl: Kubectl;
    let server: TestServer;
    let vimId: string;
    before(async () => {
      api = await startKubeApi();
      kubectl = kubectlFor(api);
      server = await startTestServer(dialect, {
        config: {
          outbound: { allow: ['127.0.0.1'] },
          kubernetes: { pollIntervalMs: 50, rolloutTimeoutMs: 20000, syncIntervalMs: 0 },
        },
      });
      const vim = await http<{ id: string }>(server.url, 'POST', '/bosun/v1/vims', {
        body: {
          name: 'k8s',
          vimType: 'ETSINFV.KUBERNETES.V_1',
          interfaceInfo: { endpoint: api.url, ssl_ca_cert: api.caPem },
          accessInfo: { bearer_token: api.token },
        },
      });
      assert.equal(vim.status, 201, vim.text);
      vimId = vim.body.id;
    });
    after(async () => {
      await server.close();
      await api.stop();
    });

    const pods = async (instanceId: string): Promise<Pod[]> => {
      const r = await kubectl(['get', 'pods', '-l', `${LABELS.instance}=${instanceId}`, '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { items: Pod[] }).items;
    };
    const images = async (instanceId: string) =>
      [...new Set((await pods(instanceId)).flatMap((p) => p.spec.containers.map((c) => c.image)))].sort();

    /** The instance as the API shows it, checked against the cluster: its VNFCs are its pods, each of its VDU. */
    async function agreed(instanceId: string): Promise<Instance> {
      const shown = await getInstance(server.url, instanceId);
      const vnfcs = shown.instantiatedVnfInfo?.vnfcResourceInfo ?? [];
      const listed = await pods(instanceId);
      assert.deepEqual(
        listed.map((p) => p.metadata.name).sort(),
        vnfcs.map((v) => v.computeResource.resourceId).sort(),
        'kubectl get pods lists the VNFCs',
      );
      for (const v of vnfcs) {
        const pod = listed.find((p) => p.metadata.name === v.computeResource.resourceId);
        assert.equal(pod?.metadata.labels?.[LABELS.vdu], v.vduId);
      }
      return shown;
    }

    const ids = (i: Instance) => (i.instantiatedVnfInfo?.vnfcResourceInfo ?? []).map((v) => v.id).sort();
    const changes = (o: OpOcc, type: string) =>
      (o.resourceChanges?.affectedVnfcs ?? [])
        .filter((v) => v.changeType === type)
        .map((v) => v.id)
        .sort();

    async function rollback(opOccId: string): Promise<OpOcc> {
      const r = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${opOccId}/rollback`, { headers: H });
      assert.equal(r.status, 202, r.text);
      return waitOpOcc(server.url, opOccId);
    }

    const instantiate = (instanceId: string, files: string[]) =>
      runTask(server.url, instanceId, 'instantiate', {
        flavourId: 'simple',
        vimConnectionInfo: { vim1: { vimId, vimType: 'ETSINFV.KUBERNETES.V_1' } },
        additionalParams: { 'lcm-kubernetes-def-files': files, namespace: 'default' },
      });

    test('instantiate failing and rolled back, scale out and in, a failed scale out rolled back, heal, graceful terminate', async () => {
      const pkg = await onboardOnce(server.url, 'test_cnf_heal.zip');
      const instance = await createInstance(server.url, pkg.vnfdId as string);

      api.cluster.failures.imagePullError('nginx');
      const failed = await instantiate(instance.id, HEAL_FILES);
      api.cluster.failures.clear();
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.match(failed.error?.detail ?? '', /cannot start: (ErrImagePull|ImagePullBackOff)/);
      const undone = await rollback(failed.id);
      assert.equal(undone.operationState, 'ROLLED_BACK', JSON.stringify(undone.error));
      assert.equal((await getInstance(server.url, instance.id)).instantiationState, 'NOT_INSTANTIATED');
      assert.deepEqual(await pods(instance.id), [], 'the rollback left no pod');
      const left = await kubectl([
        'get',
        'deployments',
        '-l',
        `${LABELS.instance}=${instance.id}`,
        '-o',
        'name',
      ]);
      assert.equal(left.stdout.trim(), '', 'nor its Deployment');

      const done = await instantiate(instance.id, HEAL_FILES);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      const started = await agreed(instance.id);
      assert.equal(ids(started).length, 2);
      assert.deepEqual(changes(done, 'ADDED'), ids(started));

      const out = await runTask(server.url, instance.id, 'scale', {
        type: 'SCALE_OUT',
        aspectId: 'vdu1_aspect',
        numberOfSteps: 1,
      });
      assert.equal(out.operationState, 'COMPLETED', JSON.stringify(out.error));
      const scaled = await agreed(instance.id);
      assert.equal(ids(scaled).length, 3);
      assert.deepEqual(scaled.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'vdu1_aspect', scaleLevel: 1 }]);
      const added = changes(out, 'ADDED');
      assert.deepEqual(
        added,
        ids(scaled).filter((id) => !ids(started).includes(id)),
      );

      const scaleIn = await runTask(server.url, instance.id, 'scale', {
        type: 'SCALE_IN',
        aspectId: 'vdu1_aspect',
        numberOfSteps: 1,
      });
      assert.equal(scaleIn.operationState, 'COMPLETED', JSON.stringify(scaleIn.error));
      const shrunk = await agreed(instance.id);
      assert.equal(ids(shrunk).length, 2);
      assert.deepEqual(shrunk.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'vdu1_aspect', scaleLevel: 0 }]);
      assert.deepEqual(
        changes(scaleIn, 'REMOVED'),
        ids(scaled).filter((id) => !ids(shrunk).includes(id)),
      );
      const podsBefore = (await pods(instance.id)).map((p) => p.metadata.name).sort();

      api.cluster.failures.imagePullError('nginx');
      const badOut = await runTask(server.url, instance.id, 'scale', {
        type: 'SCALE_OUT',
        aspectId: 'vdu1_aspect',
        numberOfSteps: 1,
      });
      api.cluster.failures.clear();
      assert.equal(badOut.operationState, 'FAILED_TEMP');
      assert.match(badOut.error?.detail ?? '', /cannot start/);
      const outUndone = await rollback(badOut.id);
      assert.equal(outUndone.operationState, 'ROLLED_BACK', JSON.stringify(outUndone.error));
      const back = await agreed(instance.id);
      assert.deepEqual(ids(back), ids(shrunk));
      assert.deepEqual(back.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'vdu1_aspect', scaleLevel: 0 }]);
      assert.deepEqual(
        (await pods(instance.id)).map((p) => p.metadata.name).sort(),
        podsBefore,
        'the pods are those before',
      );

      const [target] = back.instantiatedVnfInfo?.vnfcResourceInfo ?? [];
      const healOne = await runTask(server.url, instance.id, 'heal', { vnfcInstanceId: [target.id] });
      assert.equal(healOne.operationState, 'COMPLETED', JSON.stringify(healOne.error));
      const healed = await agreed(instance.id);
      assert.deepEqual(ids(healed), ids(back), 'the VNFC keeps its id');
      const replaced = healed.instantiatedVnfInfo?.vnfcResourceInfo?.find((v) => v.id === target.id);
      assert.notEqual(replaced?.computeResource.resourceId, target.computeResource.resourceId, 'a new pod');
      assert.deepEqual(changes(healOne, 'MODIFIED'), [target.id]);

      const healAll = await runTask(server.url, instance.id, 'heal', {});
      assert.equal(healAll.operationState, 'COMPLETED', JSON.stringify(healAll.error));
      const whole = await agreed(instance.id);
      assert.deepEqual(ids(whole), ids(healed));
      assert.deepEqual(changes(healAll, 'MODIFIED'), ids(whole));

      const terminated = await runTask(server.url, instance.id, 'terminate', {
        terminationType: 'GRACEFUL',
        gracefulTerminationTimeout: 1,
      });
      assert.equal(terminated.operationState, 'COMPLETED', JSON.stringify(terminated.error));
      assert.deepEqual(changes(terminated, 'REMOVED'), ids(whole));
      assert.deepEqual(await pods(instance.id), []);
      assert.equal((await getInstance(server.url, instance.id)).instantiationState, 'NOT_INSTANTIATED');
    });

    test('change of package: a rolling image update, one that fails rolled back, forceful terminate', async () => {
      const from = await onboardOnce(server.url, 'sol_kubernetes_v2__test_cnf_container_update_before.zip');
      const to = await onboardOnce(server.url, 'sol_kubernetes_v2__test_cnf_container_update_after.zip');
      const instance = await createInstance(server.url, from.vnfdId as string);
      const done = await instantiate(instance.id, UPDATE_FILES);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      const started = await agreed(instance.id);
      assert.deepEqual(await images(instance.id), ['nginx']);
      const change = {
        vnfdId: to.vnfdId,
        additionalParams: {
          upgrade_type: 'RollingUpdate',
          'lcm-kubernetes-def-files': UPDATE_FILES,
          vdu_params: [{ vdu_id: 'VDU1' }],
        },
      };

      api.cluster.failures.imagePullError('cirros');
      const bad = await runTask(server.url, instance.id, 'change_vnfpkg', change);
      api.cluster.failures.clear();
      assert.equal(bad.operationState, 'FAILED_TEMP');
      assert.match(bad.error?.detail ?? '', /cannot start/);
      const undone = await rollback(bad.id);
      assert.equal(undone.operationState, 'ROLLED_BACK', JSON.stringify(undone.error));
      const back = await agreed(instance.id);
      assert.equal(back.vnfdId, from.vnfdId, 'the package is the one before');
      assert.deepEqual(await images(instance.id), ['nginx'], 'the image is the one before');
      assert.deepEqual(ids(back), ids(started));

      const changed = await runTask(server.url, instance.id, 'change_vnfpkg', change);
      assert.equal(changed.operationState, 'COMPLETED', JSON.stringify(changed.error));
      const now = await agreed(instance.id);
      assert.equal(now.vnfdId, to.vnfdId);
      assert.deepEqual(await images(instance.id), ['cirros']);
      assert.deepEqual(ids(now), ids(started), 'the VNFC keeps its id');
      assert.deepEqual(changes(changed, 'MODIFIED'), ids(started));

      const terminated = await runTask(server.url, instance.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal(terminated.operationState, 'COMPLETED', JSON.stringify(terminated.error));
      assert.deepEqual(await pods(instance.id), []);
    });
  });
}

/**
 * The drift sync's LCM notification, as a subscriber receives it (a real receiver on loopback),
 * for a /vnflcm/v1 and a /vnflcm/v2 CNF on both databases: a pod Kubernetes replaced by itself,
 * read back by `POST /bosun/v1/vnf_instances/{id}/sync`, is recorded as an automatically invoked
 * MODIFY_INFO op occ, COMPLETED, whose affectedVnfcs name the VNFC moved to its new pod, and
 * notified PROCESSING then COMPLETED to the instance's major's subscriber only. No drift: no op
 * occ and no notification; an instance a failed operation holds is not synced at all. The v1
 * notifications are checked against the ETSI SOL003 v2.6.1 schema.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LABELS } from '../../../src/vims/drivers/kubernetes/names.ts';
import { type Receiver, startReceiver } from '../../notify/delivery/support.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { type KubeApi, startKubeApi } from '../../support/kube-api/index.ts';
import { type Kubectl, kubectlFor } from '../../support/kube-api/kubectl.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { onboardOnce } from './lcm-support.ts';
import { MAJORS } from './majors.ts';
import { assertOpOccNotificationV1 } from './v1-schemas.ts';

const FILES = ['Files/kubernetes/deployment_heal_simple.yaml'];
const K8S = 'ETSINFV.KUBERNETES.V_1';

type Note = Record<string, unknown> & {
  notificationType: string;
  vnfInstanceId: string;
  vnfLcmOpOccId?: string;
  operation?: string;
  operationState?: string;
  notificationStatus?: string;
  isAutomaticInvocation?: boolean;
  affectedVnfcs?: { id: string; changeType: string; computeResource: { resourceId: string } }[];
};

interface Vnfcs {
  instantiatedVnfInfo?: { vnfcResourceInfo?: { id: string; computeResource: { resourceId: string } }[] };
}

for (const dialect of DIALECTS) {
  describe(`drift sync notification (${dialect})`, () => {
    let api: KubeApi;
    let kubectl: Kubectl;
    let server: TestServer;
    let receiver: Receiver;
    let vimId: string;
    let vnfdId: string;
    before(async () => {
      api = await startKubeApi();
      kubectl = kubectlFor(api);
      receiver = await startReceiver();
      server = await startTestServer(dialect, {
        config: {
          outbound: { allow: ['127.0.0.0/8'] },
          worker: { pollIntervalMs: 50 },
          kubernetes: { pollIntervalMs: 50, rolloutTimeoutMs: 20000, syncIntervalMs: 0 },
        },
      });
      const vim = await http<{ id: string }>(server.url, 'POST', '/bosun/v1/vims', {
        body: {
          name: 'k8s',
          vimType: K8S,
          interfaceInfo: { endpoint: api.url, ssl_ca_cert: api.caPem },
          accessInfo: { bearer_token: api.token },
        },
      });
      assert.equal(vim.status, 201, vim.text);
      vimId = vim.body.id;
      vnfdId = (await onboardOnce(server.url, 'test_cnf_heal.zip')).vnfdId as string;
      for (const m of MAJORS) {
        const sub = await http(server.url, 'POST', `${m.prefix}/subscriptions`, {
          headers: m.headers,
          body: {
            callbackUri: `${receiver.url}/${m.major}`,
            filter: { vnfInstanceSubscriptionFilter: { vnfdIds: [vnfdId] } },
          },
        });
        assert.equal(sub.status, 201, sub.text);
      }
    });
    after(async () => {
      await server.close();
      await receiver.close();
      await api.stop();
    });

    const notesFor = (path: string, instanceId: string): Note[] =>
      receiver
        .notifications()
        .filter((r) => r.path === path)
        .map((r) => r.body as Note)
        .filter(
          (b) =>
            b.vnfInstanceId === instanceId && b.notificationType === 'VnfLcmOperationOccurrenceNotification',
        );
    const sync = (id: string) =>
      http<{ synced: boolean; reason?: string; vnfLcmOpOccId?: string }>(
        server.url,
        'POST',
        `/bosun/v1/vnf_instances/${id}/sync`,
        { body: {} },
      );
    const podNames = async (instanceId: string) => {
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
    const vnfcs = (i: Vnfcs) => i.instantiatedVnfInfo?.vnfcResourceInfo ?? [];

    for (const m of MAJORS) {
      test(`a ${m.prefix} instance: a pod Kubernetes replaced is an automatic MODIFY_INFO, notified`, async () => {
        const c = m.client;
        const base = server.url;
        const inst = await c.createInstance(base, vnfdId);
        const vim1 = { vimId, vimType: K8S };
        const done = await c.runTask(base, inst.id, 'instantiate', {
          flavourId: 'simple',
          vimConnectionInfo: m.major === 'v1' ? [{ id: 'vim1', ...vim1 }] : { vim1 },
          additionalParams: { 'lcm-kubernetes-def-files': FILES, namespace: 'default' },
        });
        assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
        const path = `/${m.major}`;
        await receiver.waitFor(
          () => notesFor(path, inst.id).some((n) => n.operationState === 'COMPLETED'),
          'the instantiate notified',
        );
        const before = notesFor(path, inst.id).length;
        const opOccs = async () => {
          const r = await http<{ id: string }[]>(
            base,
            'GET',
            `${m.prefix}/vnf_lcm_op_occs?filter=(eq,vnfInstanceId,${inst.id})`,
            { headers: m.headers },
          );
          assert.equal(r.status, 200, r.text);
          return r.body;
        };

        assert.deepEqual((await sync(inst.id)).body, { synced: false, reason: 'UNCHANGED' });
        assert.equal((await opOccs()).length, 1, 'no drift, no op occ');

        const shown = (await c.getInstance(base, inst.id)) as Vnfcs;
        const [victim] = vnfcs(shown);
        const gone = victim.computeResource.resourceId;
        assert.equal((await kubectl(['delete', 'pod', gone, '--wait=true'])).code, 0);
        let now: string[] = [];
        for (let i = 0; i < 200 && (now.length !== 2 || now.includes(gone)); i++) {
          await new Promise((r) => setTimeout(r, 50));
          now = await podNames(inst.id);
        }
        const synced = await sync(inst.id);
        assert.equal(synced.body.synced, true, synced.text);
        const opOccId = synced.body.vnfLcmOpOccId as string;
        const recorded = (await c.getOpOcc(base, opOccId)) as unknown as Record<string, unknown> & {
          resourceChanges?: { affectedVnfcs: { id: string; changeType: string }[] };
        };
        assert.equal(recorded.operation, 'MODIFY_INFO');
        assert.equal(recorded.operationState, 'COMPLETED');
        assert.equal(recorded.isAutomaticInvocation, true);
        assert.equal(recorded.vnfInstanceId, inst.id);
        assert.deepEqual(
          recorded.resourceChanges?.affectedVnfcs.map((v) => [v.id, v.changeType]),
          [[victim.id, 'MODIFIED']],
        );
        const after = (await c.getInstance(base, inst.id)) as Vnfcs;
        assert.deepEqual(
          vnfcs(after)
            .map((v) => v.computeResource.resourceId)
            .sort(),
          now,
        );

        await receiver.waitFor(
          () =>
            notesFor(path, inst.id).some(
              (n) => n.vnfLcmOpOccId === opOccId && n.operationState === 'COMPLETED',
            ),
          'the sync notified',
        );
        const notes = notesFor(path, inst.id).slice(before);
        assert.deepEqual(
          notes.map((n) => [
            n.vnfLcmOpOccId,
            n.operation,
            n.operationState,
            n.notificationStatus,
            n.isAutomaticInvocation,
          ]),
          [
            [opOccId, 'MODIFY_INFO', 'PROCESSING', 'START', true],
            [opOccId, 'MODIFY_INFO', 'COMPLETED', 'RESULT', true],
          ],
        );
        if (m.major === 'v1')
          for (const n of notes) assertOpOccNotificationV1(n, 'the v1 drift notification');
        const result = notes[1].affectedVnfcs ?? [];
        assert.deepEqual(
          result.map((v) => [v.id, v.changeType, v.computeResource.resourceId]),
          [[victim.id, 'MODIFIED', vnfcs(after).find((v) => v.id === victim.id)?.computeResource.resourceId]],
        );
        const other = MAJORS.find((x) => x.major !== m.major)?.major;
        assert.deepEqual(notesFor(`/${other}`, inst.id), [], "the other major's subscriber hears nothing");

        assert.deepEqual((await sync(inst.id)).body, { synced: false, reason: 'UNCHANGED' });
        api.cluster.failures.imagePullError('nginx');
        const failed = await c.runTask(base, inst.id, 'scale', {
          type: 'SCALE_OUT',
          aspectId: 'vdu1_aspect',
        });
        api.cluster.failures.clear();
        assert.equal(failed.operationState, 'FAILED_TEMP');
        assert.deepEqual(
          (await sync(inst.id)).body,
          { synced: false, reason: 'BUSY' },
          'a FAILED_TEMP op holds it',
        );
        const ops = await opOccs();
        assert.equal(ops.length, 3, 'instantiate, the sync, the failed scale: no other');
        const rolled = await http(base, 'POST', `${m.prefix}/vnf_lcm_op_occs/${failed.id}/rollback`, {
          headers: m.headers,
        });
        assert.equal(rolled.status, 202, rolled.text);
        assert.equal((await c.waitOpOcc(base, failed.id)).operationState, 'ROLLED_BACK');
        const term = await c.runTask(base, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
        assert.equal(term.operationState, 'COMPLETED', JSON.stringify(term.error));
      });
    }
  });
}

/**
 * The kubernetes-cluster driver across a crash of Bosun: `bosun serve` killed with SIGKILL after
 * heal_start took the failed master out of HAProxy and etcd, while the VIM replaces its VM (a
 * hanging server creation). A new server on the same database ends the op occ FAILED_TEMP; its
 * retry resumes at the VM replacement and joins the new master, with no command removing a
 * member: the two healthy members keep their ids, the data written before is still there, and
 * HAProxy has all three masters in rotation. Real sshd nodes, etcd and HAProxy as in
 * kubernetes-cluster.test.ts (kubeadm and kubectl are the recording scripts of
 * fake-kube-tools.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createInstance, H, startTask, V2, waitOpOcc } from '../../../http/vnflcm/lcm-support.ts';
import { kill9, newEnv, type Served, serve, stop } from '../../../http/vnflcm/processes.ts';
import { onboard } from '../../../http/vnfpkgm/support.ts';
import { ABOVE_THE_STORE } from '../../../support/databases.ts';
import { http } from '../../../support/http.ts';
import { sshUser } from '../../../support/sshd.ts';
import { startCluster } from './cluster-fixture.ts';
import {
  clusterPackage,
  clusterParams,
  instantiateRequest,
  normalized,
  type Vnfc,
} from './cluster-requests.ts';

const SIM = '/bosun/v1/sim';

async function faultUsed(url: string): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if ((await http<unknown[]>(url, 'GET', `${SIM}/faults`)).body.length === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the injected fault was never used');
}

for (const dialect of ABOVE_THE_STORE) {
  describe(`kubernetes-cluster driver across a crash (${dialect})`, () => {
    // A real cluster of sshd, etcd and HAProxy nodes, two server processes and a heal: 40 s on a
    // quiet machine, and past npm test's two minutes on a loaded one.
    test('kill -9 between heal_start and the VM replacement: the retry joins the new master and removes no healthy member', {
      timeout: 600_000,
    }, async () => {
      const user = sshUser();
      const cluster = await startCluster();
      const env = await newEnv(dialect);
      let one: Served | undefined;
      let two: Served | undefined;
      try {
        one = await serve(env, 'all');
        const variant = await clusterPackage();
        const pkg = await onboard(one.url, variant.zip);
        assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
        const instanceId = (await createInstance(one.url, variant.vnfdId)).id;
        const made = await waitOpOcc(
          one.url,
          await startTask(one.url, instanceId, 'instantiate', instantiateRequest(cluster, user)),
          undefined,
          90_000,
        );
        assert.equal(made.operationState, 'COMPLETED', JSON.stringify(made.error));
        cluster.etcdctl('put', 'bosun-test-key', 'written-before-the-crash');
        const instance = await http<{ instantiatedVnfInfo: { vnfcResourceInfo: Vnfc[] } }>(
          one.url,
          'GET',
          `${V2}/vnf_instances/${instanceId}`,
          { headers: H },
        );
        const masters = instance.body.instantiatedVnfInfo.vnfcResourceInfo.filter((v) => v.vduId === 'VDU2');
        const healed = masters[1] as Vnfc;
        const seed = cluster.short(masters[0]?.metadata?.kubernetes?.address as string);
        const host = healed.metadata?.kubernetes?.address as string;
        const m = cluster.short(host);
        await cluster.replaceVm(
          cluster.masters.find((n) => n.host === host) as (typeof cluster.masters)[number],
        );
        await http(one.url, 'POST', `${SIM}/faults`, {
          body: { kind: 'server.create', action: 'hang', timeoutMs: 600_000 },
        });
        const id = await startTask(one.url, instanceId, 'heal', {
          vnfcInstanceId: [healed.id],
          additionalParams: clusterParams(cluster, user),
        });
        await faultUsed(one.url);
        // heal_start is done: the failed master is out of rotation and out of etcd.
        assert.ok(cluster.servers().includes(`${m} MAINT`));
        const healthy = cluster.members();
        assert.deepEqual(
          healthy.map((x) => x.status),
          ['started', 'started'],
        );
        await kill9(one.child);
        cluster.resetCalls();
        two = await serve(env, 'all');
        const failed = await waitOpOcc(two.url, id, undefined, 30_000);
        assert.equal(failed.operationState, 'FAILED_TEMP');
        assert.equal(failed.error?.step, 'infra');
        assert.equal(
          (await http(two.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/retry`, { headers: H })).status,
          202,
        );
        const done = await waitOpOcc(two.url, id, undefined, 90_000);
        assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
        const calls = normalized(cluster.calls(), cluster);
        // The only membership change: the new master added, through the first healthy master.
        assert.deepEqual(
          calls.filter((l) => / member (remove|add) /.test(l)),
          [`${seed} etcdctl member add master-${m} --peer-urls=http://${m}:PEER`],
        );
        const after = cluster.members();
        assert.equal(after.length, 3);
        for (const member of healthy)
          assert.ok(after.some((x) => x.id === member.id && x.status === 'started'));
        assert.match(cluster.etcdctl('get', 'bosun-test-key'), /written-before-the-crash/);
        assert.deepEqual(cluster.servers(), ['m0 READY', 'm1 READY', 'm2 READY']);
      } finally {
        if (one) await kill9(one.child);
        if (two) await stop(two.child);
        await cluster.stop();
      }
    });
  });
}

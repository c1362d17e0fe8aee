/**
 * The kubernetes-cluster management driver through the real server, on the simulated VIM whose
 * servers get the nodes' addresses (each VNFC's external CP a fixed loopback address where a real
 * sshd listens), with a real 3-member etcd cluster the driver runs on the masters with the real
 * `etcd` and `etcdctl`, and a real HAProxy in front of them driven through its runtime API.
 * kubeadm and kubectl cannot run here: on the nodes they are small scripts that record their
 * arguments and answer as the real tools do (fake-kube-tools.ts). The tests assert the exact
 * commands run on the nodes and their order, etcd's membership and data, HAProxy's servers, and
 * what the instance records, through instantiate, a master heal (interrupted by a VIM failure
 * after heal_start, then retried), a worker heal (a command failing half-way, then retried),
 * scale out and in, a whole-VNF heal, an unreachable node and a changed host key.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { timeline } from '../../../http/timeline/timeline-support.ts';
import {
  createInstance,
  getInstance,
  H,
  startTask,
  V2,
  waitOpOcc,
} from '../../../http/vnflcm/lcm-support.ts';
import { onboard } from '../../../http/vnfpkgm/support.ts';
import { ABOVE_THE_STORE } from '../../../support/databases.ts';
import { http } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { type Sshd, type SshUser, sshUser } from '../../../support/sshd.ts';
import { type ClusterFixture, startCluster } from './cluster-fixture.ts';
import {
  clusterPackage,
  clusterParams,
  instantiateRequest,
  normalized,
  type Vnfc,
} from './cluster-requests.ts';

for (const dialect of ABOVE_THE_STORE) {
  describe(`kubernetes-cluster driver over real SSH, etcd and HAProxy (${dialect})`, () => {
    let server: TestServer;
    let cluster: ClusterFixture;
    let user: SshUser;
    let vnfdId: string;
    let instanceId: string;
    before(async () => {
      user = sshUser();
      cluster = await startCluster();
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 } },
      });
      const variant = await clusterPackage();
      const pkg = await onboard(server.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      vnfdId = variant.vnfdId;
    });
    after(async () => {
      await server?.close();
      await cluster?.stop();
    });

    const params = (ssh: object = {}) => clusterParams(cluster, user, ssh);
    const instantiateBody = () => instantiateRequest(cluster, user);
    const vnfcs = async () =>
      ((await getInstance(server.url, instanceId)).instantiatedVnfInfo?.vnfcResourceInfo ?? []) as Vnfc[];
    const vnfcAt = async (host: string) => {
      const found = (await vnfcs()).find((v) => v.metadata?.kubernetes?.address === host);
      assert.ok(found, `a VNFC at ${host}`);
      return found;
    };
    const members = () =>
      cluster
        .etcdctl('member', 'list', '-w', 'simple')
        .trim()
        .split('\n')
        .map((l) => l.split(', '))
        .map(([, status, name]) => `${name} ${status}`)
        .sort();
    const servers = () =>
      cluster
        .haproxy('show servers state k8s-masters')
        .split('\n')
        .filter((l) => /^\d+ k8s-masters /.test(l))
        .map((l) => l.split(' '))
        .map((f) => `${cluster.short(f[4] ?? '')} ${(Number(f[6]) & 1) === 1 ? 'MAINT' : 'READY'}`)
        .sort();
    const name = (role: 'master' | 'worker', host: string) => `${role}-${host.replaceAll('.', '-')}`;
    const calls = () => normalized(cluster.calls(), cluster);
    /** Runs a task on the instance to its end (a cluster's operation takes seconds: etcd members start). */
    const run = async (task: string, body: Record<string, unknown>) => {
      const id = await startTask(server.url, instanceId, task, body);
      try {
        return await waitOpOcc(server.url, id, undefined, 90_000);
      } catch (err) {
        throw new Error(`${(err as Error).message}; commands so far:\n${calls().join('\n')}`);
      }
    };

    test('a failed instantiate rolled back: the masters it had put behind HAProxy are taken out again', async () => {
      instanceId = (await createInstance(server.url, vnfdId)).id;
      // The second control-plane join fails: two masters are in HAProxy and etcd.
      cluster.failNext('--control-plane --certificate-key', 1);
      const failed = await run('instantiate', instantiateBody());
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.match(failed.error?.detail ?? '', /error: kubeadm join failed \(injected by the test\)/);
      assert.equal(cluster.servers().length, 2);
      cluster.resetCalls();
      assert.equal(
        (await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, { headers: H }))
          .status,
        202,
      );
      const rolled = await waitOpOcc(server.url, failed.id, undefined, 90_000);
      assert.equal(rolled.operationState, 'ROLLED_BACK', JSON.stringify(rolled.error));
      assert.deepEqual(cluster.servers(), []);
      assert.equal(calls().filter((l) => l.startsWith('lb socat del server')).length, 2);
      // The VIM deleted the VMs: their etcd and cluster state go with them.
      await cluster.replaceAll();
    });

    test('instantiate builds the cluster: etcd on the three masters, kubeadm init and joins, HAProxy in front', async () => {
      cluster.resetCalls();
      const op = await run('instantiate', instantiateBody());
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const found = await vnfcs();
      const masterHosts = found.filter((v) => v.vduId === 'VDU2').map((v) => v.metadata?.kubernetes?.address);
      assert.deepEqual([...masterHosts].sort(), cluster.masters.map((m) => m.host).sort());
      const [first, second, third] = masterHosts.map((h) => cluster.short(h ?? ''));
      const ic = (...ms: string[]) =>
        ms
          .map((m) => `master-${m}=http://${m}:PEER`)
          .sort()
          .join(',');
      assert.deepEqual(calls(), [
        // No member answers (the health checks are left out here): the first master is bootstrapped.
        `${first} etcd --name master-${first} --initial-cluster ${ic(first as string)} --initial-cluster-state new`,
        `${first} kubectl get nodes -o name`,
        `${first} kubeadm init --control-plane-endpoint lb:FRONT --apiserver-advertise-address ${first} --apiserver-bind-port 6443 --node-name master-${first} --pod-network-cidr 10.244.0.0/16 --service-cidr 10.96.0.0/12 --upload-certs`,
        'lb socat show servers state k8s-masters',
        `lb socat add server k8s-masters/master-${first} ${first}:6443`,
        `lb socat enable server k8s-masters/master-${first}`,
        ...[second, third].flatMap((m, i) => [
          `${first} etcdctl member list -w simple`,
          `${first} etcdctl member add master-${m} --peer-urls=http://${m}:PEER`,
          `${first} etcdctl member list -w simple`,
          `${first} kubectl get nodes -o name`,
          `${first} kubeadm token create --print-join-command`,
          `${first} kubeadm init phase upload-certs --upload-certs`,
          `${m} etcd --name master-${m} --initial-cluster ${i === 0 ? ic(first as string, m as string) : ic(first as string, second as string, m as string)} --initial-cluster-state existing`,
          `${m} kubeadm join lb:FRONT --token T --discovery-token-ca-cert-hash sha256:H --control-plane --certificate-key K --apiserver-advertise-address ${m} --apiserver-bind-port 6443 --node-name master-${m}`,
          'lb socat show servers state k8s-masters',
          `lb socat add server k8s-masters/master-${m} ${m}:6443`,
          `lb socat enable server k8s-masters/master-${m}`,
        ]),
        `${first} kubectl get nodes -o name`,
        `${first} kubeadm token create --print-join-command`,
        'w0 kubeadm join lb:FRONT --token T --discovery-token-ca-cert-hash sha256:H --node-name worker-w0',
        `${first} kubectl config view --raw`,
      ]);
      assert.deepEqual(members(), cluster.masters.map((m) => `${name('master', m.host)} started`).sort());
      assert.deepEqual(servers(), ['m0 READY', 'm1 READY', 'm2 READY']);
      cluster.etcdctl('put', 'bosun-test-key', 'written-before-the-heal');
      const inst = await getInstance(server.url, instanceId);
      const stored = inst.metadata?.kubernetesCluster as Record<string, unknown>;
      assert.equal(stored.endpoint, `https://${cluster.lb.host}:${cluster.frontendPort}`);
      assert.match(String(stored.kubeconfigSealed), /^v1\./);
      assert.doesNotMatch(JSON.stringify(inst), /kind: Config/);
      // The kubeconfig is not on the op occ's timeline either, where each command shows as a phase.
      const events = JSON.stringify(await timeline(server.url, op.id));
      assert.doesNotMatch(events, /kind: Config/);
      assert.match(events, /kubectl config view --raw/);
      const worker = await vnfcAt(cluster.workers[0]?.host as string);
      assert.deepEqual(worker.metadata?.kubernetes, {
        role: 'worker',
        hostname: name('worker', cluster.workers[0]?.host as string),
        address: cluster.workers[0]?.host,
      });
    });

    test('master heal: out of HAProxy and etcd before the new VM (kept so while the VIM fails), joined with the existing state after; a retry touches no healthy member', async () => {
      const masters = (await vnfcs()).filter((v) => v.vduId === 'VDU2');
      const healed = masters[1] as Vnfc;
      const host = healed.metadata?.kubernetes?.address as string;
      const m = cluster.short(host);
      const seed = cluster.short(masters[0]?.metadata?.kubernetes?.address as string);
      // The master failed: its etcd is gone, and its replacement will have a new host key.
      await cluster.replaceVm(
        cluster.masters.find((n) => n.host === host) as (typeof cluster.masters)[number],
      );
      await http(server.url, 'POST', '/bosun/v1/sim/faults', {
        body: { kind: 'server.create', action: 'fail' },
      });
      cluster.resetCalls();
      const failed = await run('heal', { vnfcInstanceId: [healed.id], additionalParams: params() });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.step, 'infra');
      assert.deepEqual(calls(), [
        `lb socat show servers state k8s-masters`,
        `lb socat disable server k8s-masters/master-${m}`,
        `${seed} kubectl get nodes -o name`,
        `${seed} kubectl delete node master-${m}`,
        `${seed} etcdctl member list -w simple`,
        `${seed} etcdctl member remove ID`,
      ]);
      // During the heal: out of rotation, out of etcd, the data intact on the two left.
      assert.equal(
        servers().find((x) => x.startsWith(`${m} `)),
        `${m} MAINT`,
      );
      assert.equal(members().length, 2);
      assert.match(cluster.etcdctl('get', 'bosun-test-key'), /written-before-the-heal/);
      cluster.resetCalls();
      assert.equal(
        (await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/retry`, { headers: H })).status,
        202,
      );
      const done = await waitOpOcc(server.url, failed.id, undefined, 90_000);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      assert.deepEqual(calls(), [
        `${seed} etcdctl member list -w simple`,
        `${seed} etcdctl member add master-${m} --peer-urls=http://${m}:PEER`,
        `${seed} etcdctl member list -w simple`,
        `${seed} kubectl get nodes -o name`,
        `${seed} kubeadm token create --print-join-command`,
        `${seed} kubeadm init phase upload-certs --upload-certs`,
        `${m} etcd --name master-${m} --initial-cluster ${['m0', 'm1', 'm2'].map((x) => `master-${x}=http://${x}:PEER`).join(',')} --initial-cluster-state existing`,
        `${m} kubeadm join lb:FRONT --token T --discovery-token-ca-cert-hash sha256:H --control-plane --certificate-key K --apiserver-advertise-address ${m} --apiserver-bind-port 6443 --node-name master-${m}`,
        'lb socat show servers state k8s-masters',
        `lb socat enable server k8s-masters/master-${m}`,
      ]);
      assert.deepEqual(members(), cluster.masters.map((n) => `${name('master', n.host)} started`).sort());
      assert.match(cluster.etcdctl('get', 'bosun-test-key'), /written-before-the-heal/);
      assert.deepEqual(servers(), ['m0 READY', 'm1 READY', 'm2 READY']);
      const after = await vnfcAt(host);
      assert.notEqual(after.computeResource.resourceId, healed.computeResource.resourceId);
      assert.notEqual(after.metadata?.sshHostKey?.fingerprint, healed.metadata?.sshHostKey?.fingerprint);
    });

    test('worker heal: drained and deleted, the new VM joined with a fresh token; a join failing half-way leaves FAILED_TEMP with its output and a retry completes', async () => {
      const worker = await vnfcAt(cluster.workers[0]?.host as string);
      const seed = cluster.short(
        (await vnfcs()).find((v) => v.vduId === 'VDU2')?.metadata?.kubernetes?.address as string,
      );
      await cluster.replaceVm(cluster.workers[0] as (typeof cluster.workers)[number]);
      cluster.failNext('kubeadm join');
      cluster.resetCalls();
      const failed = await run('heal', { vnfcInstanceId: [worker.id], additionalParams: params() });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.step, 'end-hook');
      assert.match(
        failed.error?.detail ?? '',
        /worker worker-.* exited with status 1: error: kubeadm join failed \(injected by the test\)/,
      );
      assert.match(String(failed.error?.commandsRun), /kubeadm token create --print-join-command → 0/);
      // The join token and the certificate key are secrets: shown neither in the error nor on the timeline.
      assert.match(String(failed.error?.command), /^kubeadm join .* --token \*\*\* /);
      const shown = JSON.stringify([failed.error, await timeline(server.url, failed.id)]);
      assert.doesNotMatch(shown, /--token [a-z0-9]{6}\.[a-z0-9]{16}|[0-9a-f]{6}\.[0-9a-f]{16}/);
      assert.match(shown, /kubectl drain worker-[0-9-]+ --ignore-daemonsets/);
      cluster.resetCalls();
      assert.equal(
        (await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/retry`, { headers: H })).status,
        202,
      );
      const done = await waitOpOcc(server.url, failed.id, undefined, 90_000);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      assert.deepEqual(calls(), [
        `${seed} kubectl get nodes -o name`,
        `${seed} kubeadm token create --print-join-command`,
        'w0 kubeadm join lb:FRONT --token T --discovery-token-ca-cert-hash sha256:H --node-name worker-w0',
      ]);
    });

    test('scale out joins the new worker; scale in drains and deletes it', async () => {
      const seed = cluster.short(
        (await vnfcs()).find((v) => v.vduId === 'VDU2')?.metadata?.kubernetes?.address as string,
      );
      cluster.resetCalls();
      const out = await run('scale', {
        type: 'SCALE_OUT',
        aspectId: 'VDU1_scale',
        additionalParams: params(),
      });
      assert.equal(out.operationState, 'COMPLETED', JSON.stringify(out.error));
      assert.deepEqual(calls(), [
        `${seed} kubectl get nodes -o name`,
        `${seed} kubeadm token create --print-join-command`,
        'w1 kubeadm join lb:FRONT --token T --discovery-token-ca-cert-hash sha256:H --node-name worker-w1',
      ]);
      assert.equal((await vnfcAt(cluster.workers[1]?.host as string)).metadata?.kubernetes?.role, 'worker');
      cluster.resetCalls();
      const scaledIn = await run('scale', {
        type: 'SCALE_IN',
        aspectId: 'VDU1_scale',
        additionalParams: params(),
      });
      assert.equal(scaledIn.operationState, 'COMPLETED', JSON.stringify(scaledIn.error));
      const left = (await vnfcs())
        .filter((v) => v.vduId === 'VDU1')
        .map((v) => cluster.short(v.metadata?.kubernetes?.address ?? ''));
      assert.equal(left.length, 1);
      const gone = left[0] === 'w0' ? 'w1' : 'w0';
      assert.deepEqual(calls(), [
        `${seed} kubectl get nodes -o name`,
        `${seed} kubectl drain worker-${gone} --ignore-daemonsets --delete-emptydir-data --timeout=60s`,
        `${seed} kubectl delete node worker-${gone}`,
      ]);
    });

    test('a failed scale out rolled back: the worker it had joined is drained and deleted again', async () => {
      const before = new Set(
        (await vnfcs()).filter((v) => v.vduId === 'VDU1').map((v) => v.metadata?.kubernetes?.hostname),
      );
      // Two new workers; the second one's join fails.
      cluster.failNext('kubeadm join', 1);
      cluster.resetCalls();
      const failed = await run('scale', {
        type: 'SCALE_OUT',
        aspectId: 'VDU1_scale',
        numberOfSteps: 2,
        additionalParams: params(),
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      const joined = calls()
        .filter((l) => / kubeadm join .* --node-name /.test(l))
        .map((l) => / --node-name (\S+)$/.exec(l)?.[1] as string);
      assert.equal(joined.length, 2);
      cluster.resetCalls();
      assert.equal(
        (await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, { headers: H }))
          .status,
        202,
      );
      const rolled = await waitOpOcc(server.url, failed.id, undefined, 90_000);
      assert.equal(rolled.operationState, 'ROLLED_BACK', JSON.stringify(rolled.error));
      // Only the worker that had joined (the first) was in the cluster to remove.
      const seed = cluster.short(
        (await vnfcs()).find((v) => v.vduId === 'VDU2')?.metadata?.kubernetes?.address as string,
      );
      assert.deepEqual(calls(), [
        `${seed} kubectl get nodes -o name`,
        `${seed} kubectl drain ${joined[0]} --ignore-daemonsets --delete-emptydir-data --timeout=60s`,
        `${seed} kubectl delete node ${joined[0]}`,
        `${seed} kubectl get nodes -o name`,
      ]);
      assert.deepEqual(
        new Set(
          (await vnfcs()).filter((v) => v.vduId === 'VDU1').map((v) => v.metadata?.kubernetes?.hostname),
        ),
        before,
      );
    });

    test('whole-VNF heal: HAProxy emptied and the stored cluster cleared, then the cluster built again on the new VMs', async () => {
      await cluster.replaceAll();
      cluster.resetCalls();
      const done = await run('heal', { additionalParams: params() });
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      const lines = calls();
      // heal_start: every master's server out of HAProxy before anything else.
      const init = lines.findIndex((l) => / kubeadm init --control-plane-endpoint /.test(l));
      assert.deepEqual(
        lines.filter((l) => l.startsWith('lb socat del server')).sort(),
        ['m0', 'm1', 'm2'].map((x) => `lb socat del server k8s-masters/master-${x}`),
      );
      assert.ok(lines.findLastIndex((l) => l.startsWith('lb socat del server')) < init);
      assert.equal(lines.filter((l) => / kubeadm init --control-plane-endpoint /.test(l)).length, 1);
      assert.equal(lines.filter((l) => / --control-plane /.test(l)).length, 2);
      assert.deepEqual(members(), cluster.masters.map((n) => `${name('master', n.host)} started`).sort());
      assert.deepEqual(servers(), ['m0 READY', 'm1 READY', 'm2 READY']);
      const inst = await getInstance(server.url, instanceId);
      assert.match(
        String((inst.metadata?.kubernetesCluster as Record<string, unknown> | undefined)?.kubeconfigSealed),
        /^v1\./,
      );
    });

    test('a node unreachable over SSH: FAILED_TEMP naming it; once it answers, a retry completes', async () => {
      const worker = (await vnfcs()).find((v) => v.vduId === 'VDU1') as Vnfc;
      const node = cluster.workers.find((w) => w.host === worker.metadata?.kubernetes?.address) as Sshd;
      await node.stop();
      const failed = await run('heal', { vnfcInstanceId: [worker.id], additionalParams: params() });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.step, 'end-hook');
      assert.match(
        failed.error?.detail ?? '',
        new RegExp(
          `${node.host.replaceAll('.', '\\.')}:${cluster.port} could not be reached over SSH after 2 attempts`,
        ),
      );
      // The new VM is up (with a key of its own).
      await node.changeHostKey();
      assert.equal(
        (await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/retry`, { headers: H })).status,
        202,
      );
      const done = await waitOpOcc(server.url, failed.id, undefined, 90_000);
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
    });

    test('a changed host key: refused before any change or credential, named in the op occ; with the new key given the heal completes', async () => {
      const master = (await vnfcs()).filter((v) => v.vduId === 'VDU2')[2] as Vnfc;
      cluster.etcdctl('put', 'bosun-test-key', 'written-before-the-heal');
      await cluster.lb.changeHostKey();
      cluster.resetCalls();
      const failed = await run('heal', { vnfcInstanceId: [master.id], additionalParams: params() });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      assert.equal(failed.error?.step, 'start-hook');
      assert.match(
        failed.error?.detail ?? '',
        /HAProxy node .*: Refused to connect to .*: the host key of .* changed/,
      );
      assert.deepEqual(calls(), []);
      assert.equal(members().length, 3);
      const ended = await http<{ operationState: string }>(
        server.url,
        'POST',
        `${V2}/vnf_lcm_op_occs/${failed.id}/fail`,
        { headers: H },
      );
      assert.equal(ended.status, 200, ended.text);
      assert.equal(ended.body.operationState, 'FAILED');
      const knownHosts = { [cluster.lb.host]: cluster.lb.hostPublicKey() };
      const done = await run('heal', {
        vnfcInstanceId: [master.id],
        additionalParams: params({ knownHosts }),
      });
      assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
      assert.deepEqual(members(), cluster.masters.map((n) => `${name('master', n.host)} started`).sort());
      assert.match(cluster.etcdctl('get', 'bosun-test-key'), /written-before-the-heal/);
      assert.deepEqual(servers(), ['m0 READY', 'm1 READY', 'm2 READY']);
    });
  });
}

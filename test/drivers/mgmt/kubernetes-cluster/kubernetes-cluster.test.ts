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
import {
  createInstance,
  getInstance,
  H,
  MAIN_SAMPLE,
  startTask,
  V2,
  waitOpOcc,
} from '../../../http/vnflcm/lcm-support.ts';
import { sampleVariant } from '../../../http/vnflcm/sample-package.ts';
import { onboard } from '../../../http/vnfpkgm/support.ts';
import { DIALECTS } from '../../../support/databases.ts';
import { http } from '../../../support/http.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { type SshUser, sshUser } from '../../../support/sshd.ts';
import { type ClusterFixture, startCluster } from './cluster-fixture.ts';

const DRIVER = '/opt/stack/tacker/samples/mgmt_driver/kubernetes/kubernetes_mgmt.py';
const HOOKS = ['instantiate_end', 'terminate_end', 'scale_start', 'scale_end', 'heal_start', 'heal_end'];

/** The main sample as a cluster: VDU2 three masters, VDU1 the workers (1, scalable to 3), every hook on the driver. */
function clusterPackage() {
  return sampleVariant(MAIN_SAMPLE, {
    vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
    edit: {
      'Definitions/v2_sample3_df_simple.yaml': (text) => {
        const start = text.indexOf('      interfaces:\n        Vnflcm:\n');
        const end = text.indexOf('\n    VDU1:\n');
        const block = [
          '      interfaces:',
          '        Vnflcm:',
          ...HOOKS.flatMap((h) => [`          ${h}:`, '            implementation: k8s-driver']),
          '      artifacts:',
          '        k8s-driver:',
          '          type: tosca.artifacts.Implementation.Python',
          `          file: ${DRIVER}`,
          '',
        ].join('\n');
        let out = `${text.slice(0, start)}${block}${text.slice(end)}`;
        out = out.replace(
          /(VDU2:\n\s+type: tosca.nodes.nfv.Vdu.Compute[\s\S]*?max_number_of_instances: )1/,
          '$13',
        );
        out = out.replace(/(- VDU2_initial_delta:[\s\S]*?number_of_instances: )1/, '$13');
        out = out.replace(
          /(- VDU2_instantiation_levels:[\s\S]*?instantiation_level_1:\n\s+number_of_instances: )1([\s\S]*?instantiation_level_2:\n\s+number_of_instances: )1/,
          '$13$23',
        );
        return out;
      },
    },
  });
}

const fixed = (ip: string) => ({
  cpProtocolData: [
    {
      layerProtocol: 'IP_OVER_ETHERNET',
      ipOverEthernet: { ipAddresses: [{ type: 'IPV4', fixedAddresses: [ip] }] },
    },
  ],
});
const dynamic = {
  cpProtocolData: [
    {
      layerProtocol: 'IP_OVER_ETHERNET',
      ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
    },
  ],
};

interface Vnfc {
  id: string;
  vduId: string;
  computeResource: { resourceId: string };
  metadata?: {
    kubernetes?: { role: string; hostname: string; address: string };
    sshHostKey?: { fingerprint: string };
  };
}

/**
 * Calls with what changes from run to run (tokens, hashes, keys, member ids, ports) written as
 * placeholders, and a call repeated at once (etcd's health while a member starts) written once.
 */
function normalized(lines: string[], c: ClusterFixture): string[] {
  return shortened(lines, c)
    .filter((line) => !line.endsWith(' etcdctl endpoint health'))
    .filter((line, i, all) => line !== all[i - 1]);
}

function shortened(lines: string[], c: ClusterFixture): string[] {
  const names = new Map<string, string>();
  for (const n of [...c.masters, ...c.workers, c.lb]) names.set(n.host, c.short(n.host));
  return lines.map((line) => {
    let out = line
      .replace(/--endpoints=\S+ --dial-timeout=2s --command-timeout=\d+s /, '')
      .replace(/--token [a-z0-9.]+/, '--token T')
      .replace(/sha256:[0-9a-f]{64}/, 'sha256:H')
      .replace(/--certificate-key [0-9a-f]{64}/, '--certificate-key K')
      .replace(/member remove [0-9a-f]+/, 'member remove ID')
      .replaceAll(`:${c.clientPort}`, ':CLIENT')
      .replaceAll(`:${c.peerPort}`, ':PEER')
      .replaceAll(`:${c.frontendPort}`, ':FRONT');
    for (const [host, short] of names)
      out = out.replaceAll(host.replaceAll('.', '-'), short).replaceAll(host, short);
    // etcd's start: its name and state are what matters.
    const etcd = /^(\S+) etcd --name (\S+) .*--initial-cluster (\S+) --initial-cluster-state (\w+)$/.exec(
      out,
    );
    // etcd lists members by id: the initial cluster is compared sorted.
    if (etcd)
      out = `${etcd[1]} etcd --name ${etcd[2]} --initial-cluster ${etcd[3]?.split(',').sort().join(',')} --initial-cluster-state ${etcd[4]}`;
    return out;
  });
}

for (const dialect of DIALECTS) {
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

    const params = (ssh: object = {}) => ({
      ssh: {
        username: user.name,
        password: user.password,
        port: cluster.port,
        attempts: 2,
        backoffMs: 50,
        ...ssh,
      },
      k8s_cluster_installation_param: {
        master_node: {
          vdu_id: 'VDU2',
          ssh_cp_name: 'VDU2_CP2',
          pod_cidr: '10.244.0.0/16',
          cluster_cidr: '10.96.0.0/12',
        },
        worker_node: { vdu_id: 'VDU1', ssh_cp_name: 'VDU1_CP2' },
        haproxy: {
          ssh_ip: cluster.lb.host,
          frontend_port: cluster.frontendPort,
          admin_socket: cluster.socket,
          backend: 'k8s-masters',
        },
        etcd: { client_port: cluster.clientPort, peer_port: cluster.peerPort, data_dir: cluster.etcdDir },
        drain_timeout: 60,
      },
    });
    const instantiateBody = () => ({
      flavourId: 'simple',
      extVirtualLinks: [
        { id: 'ext1', resourceId: 'net-ext1', extCps: [{ cpdId: 'VDU1_CP1', cpConfig: { c1: dynamic } }] },
        {
          id: 'ext2',
          resourceId: `net-k8s-${Math.random().toString(36).slice(2)}`,
          extCps: [
            {
              cpdId: 'VDU2_CP2',
              cpConfig: Object.fromEntries(cluster.masters.map((m, i) => [`m${i}`, fixed(m.host)])),
            },
            {
              cpdId: 'VDU1_CP2',
              cpConfig: Object.fromEntries(cluster.workers.map((w, i) => [`w${i}`, fixed(w.host)])),
            },
          ],
        },
      ],
      additionalParams: params(),
    });
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

    test('instantiate builds the cluster: etcd on the three masters, kubeadm init and joins, HAProxy in front', async () => {
      instanceId = (await createInstance(server.url, vnfdId)).id;
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
        /worker worker-.* exited with status 1: error: kubeadm join .* failed \(injected by the test\)/,
      );
      assert.match(String(failed.error?.commandsRun), /kubeadm token create --print-join-command → 0/);
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
  });
}

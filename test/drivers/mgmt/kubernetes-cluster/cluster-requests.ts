/**
 * The Kubernetes-cluster VNF the driver's tests run: the main sample made a cluster (VDU2 three
 * masters, VDU1 the workers, every hook on the driver as Tacker's packages name it), the requests'
 * additionalParams and the instantiate request giving each node's VNFC its node's address, and the
 * commands the nodes ran written so that a test can compare them exactly.
 */
import { MAIN_SAMPLE } from '../../../http/vnflcm/lcm-support.ts';
import { sampleVariant } from '../../../http/vnflcm/sample-package.ts';
import type { SshUser } from '../../../support/sshd.ts';
import type { ClusterFixture } from './cluster-fixture.ts';

const DRIVER = '/opt/stack/tacker/samples/mgmt_driver/kubernetes/kubernetes_mgmt.py';
const HOOKS = [
  'instantiate_end',
  'terminate_end',
  'scale_start',
  'scale_end',
  'heal_start',
  'heal_end',
  'instantiate_rollback_start',
  'scale_rollback_start',
];

/** The main sample as a cluster: VDU2 three masters, VDU1 the workers (1, scalable to 3), every hook on the driver. */
export function clusterPackage() {
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

export interface Vnfc {
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
export function normalized(lines: string[], c: ClusterFixture): string[] {
  return shortened(lines, c)
    .filter((line) => !line.endsWith(' etcdctl endpoint health'))
    .filter((line, i, all) => line !== all[i - 1]);
}

function shortened(lines: string[], c: ClusterFixture): string[] {
  const names = new Map<string, string>();
  for (const n of [...c.masters, ...c.workers, c.lb]) names.set(n.host, c.short(n.host));
  return lines.map((line) => {
    let out = line
      .replace(/--endpoints=\S+ --dial-timeout=1s --command-timeout=\d+s /, '')
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

/** additionalParams of every request: ssh (the test user) and k8s_cluster_installation_param on the fixture. */
export const clusterParams = (cluster: ClusterFixture, user: SshUser, ssh: object = {}) => ({
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

/** Instantiate: one cpConfig entry per node, so each VNFC's CP gets its node's address. */
export const instantiateRequest = (cluster: ClusterFixture, user: SshUser) => ({
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
  additionalParams: clusterParams(cluster, user),
});

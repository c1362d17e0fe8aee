/**
 * `additionalParams.k8s_cluster_installation_param`: which VDUs are the cluster's masters and
 * workers and through which CPs they are reached (Tacker's kubernetes_mgmt names, kept), and
 * Bosun's own parts: the HAProxy node in front of the masters, where etcd listens, and how long a
 * drain may take. Credentials are `additionalParams.ssh`'s (sealed at rest); a password written
 * in `master_node` or `worker_node`, as Tacker's requests carry it, is refused rather than kept
 * in the clear with the op occ.
 */
import { type Static, Type } from '@sinclair/typebox';
import { ApiError } from '../../../../sol/problem.ts';

const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9._-]+$' });
const Cidr = Type.String({ maxLength: 64, pattern: '^[0-9a-fA-F.:]+/[0-9]{1,3}$' });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const AbsolutePath = Type.String({ minLength: 2, maxLength: 1024, pattern: '^/[A-Za-z0-9._/-]+$' });
/** Refused (checkK8sParams) where Tacker's requests carry it: the SSH password belongs in additionalParams.ssh. */
const NoPassword = Type.Optional(Type.Unknown());

const NodeParams = {
  /** The VDU whose VNFCs are these nodes. */
  vdu_id: Name,
  /** The CP whose address Bosun reaches the node at over SSH. */
  ssh_cp_name: Name,
  /** The CP whose address the cluster uses (etcd, the API server, HAProxy); ssh_cp_name's by default. */
  nic_cp_name: Type.Optional(Name),
  /** The login on these nodes; additionalParams.ssh.username by default. */
  username: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._][A-Za-z0-9._-]*$' }),
  ),
  password: NoPassword,
};

export const K8sClusterParamsSchema = Type.Object(
  {
    master_node: Type.Object(
      {
        ...NodeParams,
        pod_cidr: Type.Optional(Cidr),
        cluster_cidr: Type.Optional(Cidr),
      },
      { additionalProperties: false },
    ),
    worker_node: Type.Object(NodeParams, { additionalProperties: false }),
    /** The HAProxy in front of the masters, driven through its runtime API over SSH. */
    haproxy: Type.Object(
      {
        /** The HAProxy node's address (SSH) and the address and port clients reach the cluster at. */
        ssh_ip: Type.String({ minLength: 1, maxLength: 255, pattern: '^[0-9a-fA-F.:]+$' }),
        frontend_port: Type.Optional(Port),
        /** Its runtime API socket on that node (a `stats socket … level admin`). */
        admin_socket: Type.Optional(AbsolutePath),
        /** The backend whose servers are the masters. */
        backend: Type.Optional(Name),
        /** The masters' API server port. */
        api_port: Type.Optional(Port),
      },
      { additionalProperties: false },
    ),
    /** The etcd members the driver runs on the masters, one each on the master's address. */
    etcd: Type.Optional(
      Type.Object(
        {
          client_port: Type.Optional(Port),
          peer_port: Type.Optional(Port),
          /** Each member keeps its data in `<data_dir>/<member name>`. */
          data_dir: Type.Optional(AbsolutePath),
        },
        { additionalProperties: false },
      ),
    ),
    /** Seconds `kubectl drain` may take before the hook fails. */
    drain_timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 3600 })),
    /** Run the node commands under sudo (as a user that is not root). */
    sudo: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);
export type K8sClusterParams = Static<typeof K8sClusterParamsSchema>;

export const K8S_PARAMS_KEY = 'k8s_cluster_installation_param';

/** The parameters with every default filled in. */
export interface ClusterSettings {
  master: {
    vduId: string;
    sshCp: string;
    nicCp: string;
    username?: string;
    podCidr: string;
    serviceCidr: string;
  };
  worker: { vduId: string; sshCp: string; nicCp: string; username?: string };
  haproxy: { address: string; frontendPort: number; socket: string; backend: string; apiPort: number };
  etcd: { clientPort: number; peerPort: number; dataDir: string };
  drainTimeoutS: number;
  sudo: boolean;
}

export function settingsOf(p: K8sClusterParams): ClusterSettings {
  return {
    master: {
      vduId: p.master_node.vdu_id,
      sshCp: p.master_node.ssh_cp_name,
      nicCp: p.master_node.nic_cp_name ?? p.master_node.ssh_cp_name,
      ...(p.master_node.username ? { username: p.master_node.username } : {}),
      // Tacker's defaults.
      podCidr: p.master_node.pod_cidr ?? '192.168.0.0/16',
      serviceCidr: p.master_node.cluster_cidr ?? '10.96.0.0/12',
    },
    worker: {
      vduId: p.worker_node.vdu_id,
      sshCp: p.worker_node.ssh_cp_name,
      nicCp: p.worker_node.nic_cp_name ?? p.worker_node.ssh_cp_name,
      ...(p.worker_node.username ? { username: p.worker_node.username } : {}),
    },
    haproxy: {
      address: p.haproxy.ssh_ip,
      frontendPort: p.haproxy.frontend_port ?? 6443,
      socket: p.haproxy.admin_socket ?? '/run/haproxy/admin.sock',
      backend: p.haproxy.backend ?? 'k8s-masters',
      apiPort: p.haproxy.api_port ?? 6443,
    },
    etcd: {
      clientPort: p.etcd?.client_port ?? 2379,
      peerPort: p.etcd?.peer_port ?? 2380,
      dataDir: p.etcd?.data_dir ?? '/var/lib/etcd',
    },
    drainTimeoutS: p.drain_timeout ?? 120,
    sudo: p.sudo === true,
  };
}

/** What the schema cannot say: a password given where Tacker's requests put it. */
export function checkK8sParams(value: K8sClusterParams): void {
  for (const role of ['master_node', 'worker_node'] as const) {
    if (value[role].password !== undefined)
      throw new ApiError(
        400,
        `additionalParams.${K8S_PARAMS_KEY}.${role}.password is not accepted: give the nodes' password in additionalParams.ssh.password, which Bosun keeps sealed and never shows.`,
      );
  }
}

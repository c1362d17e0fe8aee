/**
 * The cluster as the instance records it: each master and worker VNFC with the name it has in
 * Kubernetes and etcd, the address Bosun reaches it at (ssh_cp_name) and the address the cluster
 * uses (nic_cp_name), both read from its CPs, never guessed. A node's name comes from its cluster
 * address (`master-10-0-0-5`), so a VNFC healed on the same ports keeps its name and a retry
 * finds the same node, etcd member and HAProxy server again.
 */
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../../../sol/instance-model.ts';
import { vnfcAddress } from '../../ssh/vnfc-address.ts';
import { BuiltinDriverError } from '../driver.ts';
import type { DriverContext } from './context.ts';
import type { NodeTarget } from './node-shell.ts';

export type Role = 'master' | 'worker';

export interface ClusterNode extends NodeTarget {
  role: Role;
  /** Its Kubernetes node name, etcd member name and HAProxy server name. */
  name: string;
  vnfc: VnfcResourceInfo;
  /** The address the cluster uses. */
  nicAddress: string;
}

export interface Cluster {
  masters: ClusterNode[];
  workers: ClusterNode[];
}

/** The host key pinned on a VNFC's metadata (as the ssh-command driver pins it). */
export interface PinnedKey {
  serverId: string;
  fingerprint: string;
}

function addressOf(vnfc: VnfcResourceInfo, info: InstantiatedVnfInfo | undefined, cp: string): string {
  const at = vnfcAddress(vnfc, info, [cp]);
  if ('problem' in at) throw new BuiltinDriverError(`${at.problem}.`, { vnfcId: vnfc.id });
  // It goes into node names and commands: an IP address only.
  if (!/^[0-9a-fA-F.:]{2,45}$/.test(at.address))
    throw new BuiltinDriverError(`VNFC ${vnfc.id} (${vnfc.vduId}): ${cp}'s address is not an IP address.`, {
      vnfcId: vnfc.id,
    });
  return at.address;
}

export const nodeName = (role: Role, address: string) =>
  `${role}-${address.toLowerCase().replaceAll(/[.:]/g, '-')}`;

function nodeOf(
  ctx: DriverContext,
  info: InstantiatedVnfInfo | undefined,
  vnfc: VnfcResourceInfo,
  role: Role,
) {
  const s = role === 'master' ? ctx.settings.master : ctx.settings.worker;
  const nicAddress = addressOf(vnfc, info, s.nicCp);
  const name = nodeName(role, nicAddress);
  const pinned = vnfc.metadata?.sshHostKey as PinnedKey | undefined;
  return {
    role,
    name,
    vnfc,
    nicAddress,
    label: `${role} ${name} (VNFC ${vnfc.id})`,
    vnfcId: vnfc.id,
    address: addressOf(vnfc, info, s.sshCp),
    ...(s.username ? { username: s.username } : {}),
    ...(pinned?.serverId === vnfc.computeResource.resourceId ? { pinned: pinned.fingerprint } : {}),
  } satisfies ClusterNode;
}

/** The masters and workers of `info`, in the order the instance lists them. */
export function clusterOf(ctx: DriverContext, info: InstantiatedVnfInfo | undefined): Cluster {
  const vnfcs = info?.vnfcResourceInfo ?? [];
  const of = (role: Role) => {
    const vduId = role === 'master' ? ctx.settings.master.vduId : ctx.settings.worker.vduId;
    return vnfcs.filter((v) => v.vduId === vduId).map((v) => nodeOf(ctx, info, v, role));
  };
  const cluster = { masters: of('master'), workers: of('worker') };
  if (cluster.masters.length === 0)
    throw new BuiltinDriverError(
      `The instance has no VNFC of the master VDU ${ctx.settings.master.vduId} (master_node.vdu_id): a cluster needs at least one master.`,
    );
  return cluster;
}

/** The VNFC resource ids a SOL002 heal names (vnfcInfo ids or vnfcResourceInfo ids). */
export function healedVnfcIds(info: InstantiatedVnfInfo | undefined, vnfcInstanceId: unknown): Set<string> {
  const ids = Array.isArray(vnfcInstanceId) ? (vnfcInstanceId as string[]) : [];
  const byInfo = new Map((info?.vnfcInfo ?? []).map((v) => [v.id, v.vnfcResourceInfoId]));
  return new Set(ids.map((id) => byInfo.get(id) ?? id));
}

/** The VNFC metadata the driver answers for `node`: its role, name and cluster address, and its pinned key. */
export function nodeMetadata(
  ctx: DriverContext,
  node: ClusterNode,
): { id: string; metadata: Record<string, unknown> } {
  const seen = ctx.seenKeys.get(node.address);
  return {
    id: node.vnfc.id,
    metadata: {
      kubernetes: { role: node.role, hostname: node.name, address: node.nicAddress },
      ...(seen
        ? {
            sshHostKey: {
              serverId: node.vnfc.computeResource.resourceId,
              fingerprint: seen,
            } satisfies PinnedKey,
          }
        : {}),
    },
  };
}

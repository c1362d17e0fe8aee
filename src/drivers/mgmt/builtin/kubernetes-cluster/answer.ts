/**
 * The driver's answer: in the instance's metadata the cluster (its endpoint through HAProxy, the
 * masters and workers by name, the HAProxy node and its pinned key, the kubeconfig sealed), and in
 * each node's VNFC metadata its role, name and address and its pinned host key.
 */
import type { HookOutput } from '../../hook-contract.ts';
import { type Cluster, nodeMetadata } from './cluster.ts';
import type { DriverContext } from './context.ts';
import { CLUSTER_KEY } from './haproxy-node.ts';
import { clusterEndpoint } from './kubeadm.ts';

export function clusterAnswer(ctx: DriverContext, cluster: Cluster, kubeconfig?: string): HookOutput {
  const s = ctx.settings;
  const seal = ctx.call.seal;
  const hostKey = ctx.seenKeys.get(s.haproxy.address);
  return {
    vnfInstance: {
      metadata: {
        [CLUSTER_KEY]: {
          endpoint: `https://${clusterEndpoint(s)}`,
          masters: cluster.masters.map((m) => m.name),
          workers: cluster.workers.map((w) => w.name),
          haproxy: {
            address: s.haproxy.address,
            backend: s.haproxy.backend,
            ...(hostKey ? { hostKey } : {}),
          },
          ...(kubeconfig && seal ? { kubeconfigSealed: seal(kubeconfig) } : {}),
        },
      },
    },
    vnfcResourceInfo: [...cluster.masters, ...cluster.workers].map((n) => nodeMetadata(ctx, n)),
  };
}

/** The nodes' metadata only (the instance's cluster entry unchanged but for the node lists). */
export function nodesAnswer(ctx: DriverContext, cluster: Cluster, touched: Set<string>): HookOutput {
  const nodes = [...cluster.masters, ...cluster.workers].filter((n) => touched.has(n.vnfc.id));
  return {
    vnfInstance: {
      metadata: {
        [CLUSTER_KEY]: {
          masters: cluster.masters.map((m) => m.name),
          workers: cluster.workers.map((w) => w.name),
        },
      },
    },
    ...(nodes.length ? { vnfcResourceInfo: nodes.map((n) => nodeMetadata(ctx, n)) } : {}),
  };
}

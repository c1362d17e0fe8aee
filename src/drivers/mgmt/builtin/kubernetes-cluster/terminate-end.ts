/**
 * terminate_end: the VMs are gone; what outlives them is the HAProxy node in front of them, whose
 * master servers are deleted, and the cluster's state in the instance's metadata, which is
 * cleared. A whole-VNF heal starts the same way (heal-start.ts).
 */
import type { HookOutput } from '../../hook-contract.ts';
import type { BuiltinHook } from '../driver.ts';
import type { Cluster } from './cluster.ts';
import { contextOf, type DriverContext } from './context.ts';
import { takeOut } from './haproxy.ts';
import { CLUSTER_KEY, haproxyNode } from './haproxy-node.ts';
import { onNode } from './node-shell.ts';

export async function forgetCluster(ctx: DriverContext, cluster: Cluster): Promise<HookOutput> {
  await onNode(ctx, haproxyNode(ctx), async (lb) => {
    for (const master of cluster.masters) await takeOut(lb, ctx.settings, master.name, true);
  });
  return {
    vnfInstance: { metadata: { [CLUSTER_KEY]: null } },
    vnfcResourceInfo: [...cluster.masters, ...cluster.workers].map((n) => ({
      id: n.vnfc.id,
      metadata: { kubernetes: null },
    })),
  };
}

export const terminateEnd: BuiltinHook = async (call) => {
  const ctx = contextOf(call);
  // terminate_end sees the instance without VNFCs: the masters are the ones it had (the start hook's view is gone).
  const stored = call.input.vnfInstance.metadata?.[CLUSTER_KEY] as { masters?: string[] } | undefined;
  const names = stored?.masters ?? [];
  if (names.length === 0) return { vnfInstance: { metadata: { [CLUSTER_KEY]: null } } };
  await onNode(ctx, haproxyNode(ctx), async (lb) => {
    for (const name of names) await takeOut(lb, ctx.settings, name, true);
  });
  return { vnfInstance: { metadata: { [CLUSTER_KEY]: null } } };
};

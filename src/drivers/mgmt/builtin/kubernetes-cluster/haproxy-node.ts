/**
 * The HAProxy node as an SSH target: its address from haproxy.ssh_ip, its host key from
 * knownHosts or the one pinned in the instance's metadata when it was first reached.
 */
import type { DriverContext } from './context.ts';
import type { NodeTarget } from './node-shell.ts';

export const CLUSTER_KEY = 'kubernetesCluster';

export function haproxyNode(ctx: DriverContext): NodeTarget {
  const stored = ctx.call.input.vnfInstance.metadata?.[CLUSTER_KEY] as
    | { haproxy?: { address?: string; hostKey?: string } }
    | undefined;
  const address = ctx.settings.haproxy.address;
  return {
    label: `HAProxy node ${address}`,
    address,
    ...(stored?.haproxy?.address === address && stored.haproxy.hostKey
      ? { pinned: stored.haproxy.hostKey }
      : {}),
  };
}

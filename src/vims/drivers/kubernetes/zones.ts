/**
 * The zones of a Kubernetes VIM: the `topology.kubernetes.io/zone` labels of its nodes that take pods.
 * A cluster without zone labels, or a VIM user who may not list nodes (a namespace's tenant),
 * has none: the scheduler places pods where it can.
 */
import type { VimConnection } from '../../contract.ts';
import { InfraError } from '../../contract.ts';
import type { Node } from './client/types.ts';
import { type KubernetesDeps, withClient } from './deps.ts';

export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/** A node that takes pods: not cordoned, and not reported other than Ready. */
export const usable = (n: Node) =>
  !n.spec?.unschedulable &&
  !(n.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status !== 'True');

export async function zones(deps: KubernetesDeps, vim: VimConnection): Promise<string[]> {
  return withClient(deps, vim, async (client) => {
    let nodes: Node[];
    try {
      nodes = await client.nodes();
    } catch (error) {
      if (error instanceof InfraError && error.detail?.status === 403) return [];
      throw error;
    }
    return [
      ...new Set(
        nodes
          .filter(usable)
          .map((n) => n.metadata.labels?.[ZONE_LABEL])
          .filter((z): z is string => !!z),
      ),
    ].sort();
  });
}

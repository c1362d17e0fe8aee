/**
 * Moving VDUs to new replica counts from the instance's stored workloads: the pods of VNFCs to
 * remove are marked first (the pod-deletion-cost a ReplicaSet reads to choose whom a scale-in
 * removes), then each workload is applied again with its new replicas and waited for. A
 * controller that removes another pod instead is believed: the VNFC whose pod went takes the
 * one that stayed (MODIFIED).
 * Scale and the rollback of a scale out both end here.
 */
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../../sol/instance-model.ts';
import type { OperationContext } from '../../contract.ts';
import type { KubeClient } from './client/client.ts';
import { converge, idsByVdu, type VduTarget } from './converge.ts';
import type { KubernetesDeps } from './deps.ts';
import { DELETION_COST } from './names.ts';
import { type KubeState, storedWorkload } from './state.ts';
import { stamped } from './workloads.ts';

export interface ScaleTo {
  /** VNFCs that stay (ids of `current`), and those added per VDU. */
  keep: ReadonlySet<string>;
  add: Map<string, string[]>;
}

export async function scaleTo(
  client: KubeClient,
  deps: KubernetesDeps,
  ctx: OperationContext,
  state: KubeState,
  current: InstantiatedVnfInfo,
  to: ScaleTo,
  /** Pods to remove that `current` does not list (a rollback removes the pods its op occ added). */
  extraRemovals: string[] = [],
): Promise<{ vnfcs: VnfcResourceInfo[]; state: KubeState }> {
  const before = current.vnfcResourceInfo ?? [];
  const removed = [
    ...before.filter((v) => !to.keep.has(v.id)).map((v) => v.computeResource.resourceId),
    ...extraRemovals,
  ];
  for (const pod of removed) {
    await client.patchPodMetadata(
      state.namespace,
      pod,
      { annotations: { [DELETION_COST]: '-1000' } },
      ctx.signal,
    );
  }
  const existing = idsByVdu(before);
  const vdu_reses = { ...state.vdu_reses };
  const apply: { object: ReturnType<typeof storedWorkload>; body: Record<string, unknown> }[] = [];
  const vdus: VduTarget[] = Object.entries(state.vdu_reses).map(([vduId, body]) => {
    const workload = storedWorkload(vduId, body);
    const keep = (existing.get(vduId) ?? []).filter((id) => to.keep.has(id));
    const add = to.add.get(vduId) ?? [];
    const replicas = keep.length + add.length;
    // Applied whatever the stored count: the live one may differ (a retry, a rollback).
    if (workload.info.workload === 'replicas') {
      const next = stamped(workload, {
        instanceId: ctx.instanceId,
        opOccId: ctx.opOccId,
        namespace: state.namespace,
        vduId,
        replicas,
      });
      vdu_reses[vduId] = next;
      apply.push({ object: workload, body: next });
    }
    return { vduId, workload, keep, add };
  });
  const vnfcs = await converge(client, deps, ctx, {
    namespace: state.namespace,
    apply,
    vdus,
    before,
  });
  return { vnfcs, state: { ...state, vdu_reses } };
}

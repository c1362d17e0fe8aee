/**
 * The instance's VNFCs from its pods. A VNFC's id is the engine's and outlives its pod: a pod a
 * VNFC had keeps it; the other pods of the VDU (oldest first) take the ids of VNFCs whose pod
 * went (a heal, a rescheduling: the VNFC is MODIFIED) and then the operation's new ids (ADDED).
 * computeResource is the pod (Tacker's resourceId, with the workload's kind as its
 * vimLevelResourceType). Pods get the op occ label when an operation first sees them, and the
 * label of the VNFC they are, which later operations (a retry, a rollback) read back first.
 */

import type { VnfcInfo, VnfcResourceInfo } from '../../../sol/instance-model.ts';
import { InfraError } from '../../contract.ts';
import type { KubeClient } from './client/client.ts';
import type { Pod } from './client/types.ts';
import { LABELS, vduSelector } from './names.ts';
import { ZONE_LABEL } from './zones.ts';

export interface VduPods {
  vduId: string;
  kind: string;
  /** The VDU's VNFCs before, in instance order (newest first). */
  before: VnfcResourceInfo[];
  /** Ids of VNFCs to keep (a subset of `before`). */
  keep: string[];
  /** Ids of VNFCs the operation adds. */
  add: string[];
}

const byAge = (a: Pod, b: Pod) =>
  (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
  a.metadata.name.localeCompare(b.metadata.name);

/** Assigns the VDU's live pods to VNFC ids; the new VNFCs first, then the kept ones in their order. */
export function assignPods(
  vdu: VduPods,
  pods: Pod[],
  vimConnectionId: string,
  zoneOfNode: ReadonlyMap<string, string> = new Map(),
): VnfcResourceInfo[] {
  const live = pods.filter((p) => !p.metadata.deletionTimestamp).sort(byAge);
  const wanted = vdu.keep.length + vdu.add.length;
  if (live.length !== wanted) {
    throw new InfraError(
      'VIM_OPERATION_FAILED',
      `${vdu.vduId} runs ${live.length} pods where its ${wanted} VNFCs need ${wanted}; the workload's replicas were changed outside Bosun (bosun vnf sync reads them back).`,
      { vduId: vdu.vduId },
    );
  }
  const podOf = new Map<string, string>();
  const taken = new Set<string>();
  const keep = new Set(vdu.keep);
  const wantedIds = new Set([...vdu.keep, ...vdu.add]);
  // A pod labelled as a VNFC the operation wants is that VNFC (a retry, a rollback).
  for (const p of live) {
    const id = p.metadata.labels?.[LABELS.vnfc];
    if (id && wantedIds.has(id) && !podOf.has(id)) {
      podOf.set(id, p.metadata.name);
      taken.add(p.metadata.name);
    }
  }
  for (const v of vdu.before) {
    const name = v.computeResource.resourceId;
    if (
      keep.has(v.id) &&
      !podOf.has(v.id) &&
      !taken.has(name) &&
      live.some((p) => p.metadata.name === name)
    ) {
      podOf.set(v.id, name);
      taken.add(name);
    }
  }
  const free = live.filter((p) => !taken.has(p.metadata.name));
  for (const id of [...vdu.keep, ...vdu.add]) {
    if (podOf.has(id)) continue;
    const pod = free.shift();
    if (pod) podOf.set(id, pod.metadata.name);
  }
  const old = new Map(vdu.before.map((v) => [v.id, v]));
  return [...vdu.add, ...vdu.before.filter((v) => keep.has(v.id)).map((v) => v.id)].map((id) => {
    const pod = live.find((p) => p.metadata.name === podOf.get(id));
    const host = pod?.spec?.nodeName;
    const zone = host ? zoneOfNode.get(host) : undefined;
    const metadata = {
      ...old.get(id)?.metadata,
      ...(zone ? { zone } : {}),
      ...(host ? { host } : {}),
      // A pod's nearest thing to a flavour: its quality-of-service class.
      flavor: pod?.status?.qosClass ?? 'BestEffort',
      image: (pod?.spec?.containers ?? []).map((c) => c.image ?? '').join(','),
    };
    return {
      id,
      vduId: vdu.vduId,
      ...(zone ? { zoneId: zone } : {}),
      computeResource: { vimConnectionId, resourceId: podOf.get(id) ?? '', vimLevelResourceType: vdu.kind },
      metadata,
    };
  });
}

/** The zone label of each node; none when the VIM user may not list nodes (a namespace's tenant). */
export async function nodeZones(client: KubeClient, signal: AbortSignal): Promise<Map<string, string>> {
  try {
    const nodes = await client.nodes(signal);
    return new Map(
      nodes.flatMap((n) =>
        n.metadata.labels?.[ZONE_LABEL] ? [[n.metadata.name, n.metadata.labels[ZONE_LABEL]]] : [],
      ),
    );
  } catch (error) {
    if (error instanceof InfraError && error.detail?.status === 403) return new Map();
    throw error;
  }
}

/** Reads every VDU's pods, assigns them, and labels the pods no op occ has labelled yet. */
export async function readVnfcs(
  client: KubeClient,
  namespace: string,
  instanceId: string,
  opOccId: string,
  vimConnectionId: string,
  vdus: readonly VduPods[],
  signal: AbortSignal,
): Promise<VnfcResourceInfo[]> {
  const zones = await nodeZones(client, signal);
  const out: VnfcResourceInfo[] = [];
  for (const vdu of vdus) {
    const pods = await client.pods(namespace, vduSelector(instanceId, vdu.vduId), signal);
    const vnfcs = assignPods(vdu, pods, vimConnectionId, zones);
    for (const v of vnfcs) {
      const pod = pods.find((p) => p.metadata.name === v.computeResource.resourceId);
      const labels = pod?.metadata.labels ?? {};
      if (!pod || (labels[LABELS.vnfc] === v.id && labels[LABELS.opOcc])) continue;
      await client.patchPodMetadata(
        namespace,
        pod.metadata.name,
        { labels: { [LABELS.vnfc]: v.id, ...(labels[LABELS.opOcc] ? {} : { [LABELS.opOcc]: opOccId }) } },
        signal,
      );
    }
    out.push(...vnfcs);
  }
  return out;
}

/** Newest first across VDUs: the added VNFCs, then the others in their previous order. */
export function ordered(vnfcs: VnfcResourceInfo[], before: readonly VnfcResourceInfo[]): VnfcResourceInfo[] {
  const known = new Set(before.map((v) => v.id));
  const index = new Map(before.map((v, i) => [v.id, i]));
  const added = vnfcs.filter((v) => !known.has(v.id));
  const kept = vnfcs
    .filter((v) => known.has(v.id))
    .sort((a, b) => (index.get(a.id) ?? 0) - (index.get(b.id) ?? 0));
  return [...added, ...kept];
}

export const vnfcInfoOf = (vnfcs: readonly VnfcResourceInfo[]): VnfcInfo[] =>
  vnfcs.map((v) => ({
    id: `${v.vduId}-${v.id}`,
    vduId: v.vduId,
    vnfcResourceInfoId: v.id,
    vnfcState: 'STARTED',
  }));

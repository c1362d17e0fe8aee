/**
 * The step every operation ends with: apply what it changes (after restarting the pods an earlier
 * attempt left stuck, stuck-pods.ts), wait for the VDUs' workloads to run it (rollout.ts), and
 * read the VNFCs back from the pods (vnfcs.ts), newest first.
 */
import type { VnfcResourceInfo } from '../../../sol/instance-model.ts';
import type { OperationContext } from '../../contract.ts';
import { applyAll } from './apply.ts';
import type { KubeClient } from './client/client.ts';
import type { KubernetesDeps } from './deps.ts';
import type { ManifestObject } from './manifests/objects.ts';
import { waitForRollout } from './rollout.ts';
import { restartStuckPods } from './stuck-pods.ts';
import { ordered, readVnfcs } from './vnfcs.ts';

export interface VduTarget {
  vduId: string;
  workload: ManifestObject;
  /** VNFC ids kept (from `before`) and added. */
  keep: string[];
  add: string[];
}

export interface Target {
  namespace: string;
  apply: { object: ManifestObject; body: Record<string, unknown> }[];
  vdus: VduTarget[];
  before: VnfcResourceInfo[];
  /** Names of pods that must be gone before the VDUs count as rolled out. */
  replaced?: ReadonlySet<string>;
}

export async function converge(
  client: KubeClient,
  deps: KubernetesDeps,
  ctx: OperationContext,
  target: Target,
): Promise<VnfcResourceInfo[]> {
  await restartStuckPods(client, target.namespace, ctx.instanceId, ctx.signal);
  await applyAll(client, target.namespace, ctx.instanceId, target.apply, ctx.signal);
  await waitForRollout(
    client,
    deps.config,
    target.namespace,
    ctx.instanceId,
    target.vdus.map((v) => ({
      vduId: v.vduId,
      info: v.workload.info,
      name: v.workload.name,
      ...(v.workload.info.workload === 'daemon' ? {} : { replicas: v.keep.length + v.add.length }),
      newVnfcIds: v.add,
    })),
    ctx.signal,
    target.replaced,
  );
  const vnfcs = await readVnfcs(
    client,
    target.namespace,
    ctx.instanceId,
    ctx.opOccId,
    ctx.vim.id,
    target.vdus.map((v) => ({
      vduId: v.vduId,
      kind: v.workload.info.kind,
      before: target.before.filter((b) => b.vduId === v.vduId),
      keep: v.keep,
      add: v.add,
    })),
    ctx.signal,
  );
  return ordered(vnfcs, target.before);
}

/** The ids of `vnfcs` per VDU. */
export function idsByVdu(vnfcs: readonly { id: string; vduId: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const v of vnfcs) out.set(v.vduId, [...(out.get(v.vduId) ?? []), v.id]);
  return out;
}

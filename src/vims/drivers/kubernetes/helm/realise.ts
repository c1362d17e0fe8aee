/**
 * From a release to the instance's VNFCs: the release's manifest (`helm get manifest`) read as
 * manifests are (kinds and limits checked), each VDU's workload found in it (vdu_mapping, or the
 * workload named as the VDU's name property or starting with `<name>-`, as a chart names
 * workloads after its release), Bosun's labels put on those workloads and their pod templates
 * with Bosun's own field manager (the chart's fields stay Helm's), and then the rollout waited for
 * and the pods read back as the manifest path does (converge.ts).
 */
import type { VnfcResourceInfo } from '../../../../sol/instance-model.ts';
import type { Flavour } from '../../../../vnfd/model/vnfd.ts';
import type { OperationContext } from '../../../contract.ts';
import type { KubeClient } from '../client/client.ts';
import { converge, type VduTarget } from '../converge.ts';
import type { KubernetesDeps } from '../deps.ts';
import { type ManifestObject, manifestObjects } from '../manifests/objects.ts';
import { LABELS } from '../names.ts';
import { type VduWorkloads, vduWorkloads } from '../workloads.ts';

/** Each VDU's workload among the release's objects. */
export function releaseWorkloads(
  flavour: Flavour,
  objects: readonly ManifestObject[],
  additionalParams: Record<string, unknown> | undefined,
): VduWorkloads {
  const out = vduWorkloads(flavour, objects, additionalParams);
  for (const vdu of flavour.vdus) {
    if (out.has(vdu.id)) continue;
    const found = objects.filter((o) => o.info.workload && o.name.startsWith(`${vdu.name}-`));
    if (found.length === 1) out.set(vdu.id, found[0] as ManifestObject);
  }
  return out;
}

export function releaseObjects(manifest: string, deps: KubernetesDeps): ManifestObject[] {
  return manifestObjects(new Map([['the Helm release', Buffer.from(manifest)]]), deps.config);
}

/** Bosun's labels on a VDU's workload (metadata and pod template), and nothing else. */
export function helmStamp(o: ManifestObject, ctx: OperationContext, namespace: string, vduId: string) {
  const own = { [LABELS.instance]: ctx.instanceId, [LABELS.opOcc]: ctx.opOccId };
  const pod = { [LABELS.instance]: ctx.instanceId, [LABELS.vdu]: vduId };
  const metadata = { name: o.name, namespace };
  const head = { apiVersion: o.info.apiVersion, kind: o.info.kind };
  return o.info.workload === 'pod'
    ? { ...head, metadata: { ...metadata, labels: { ...own, ...pod } } }
    : {
        ...head,
        metadata: { ...metadata, labels: own },
        spec: { template: { metadata: { labels: pod } } },
      };
}

export interface Realise {
  namespace: string;
  workloads: VduWorkloads;
  vdus: { vduId: string; keep: string[]; add: string[] }[];
  before: VnfcResourceInfo[];
  replaced?: ReadonlySet<string>;
}

export async function realise(
  client: KubeClient,
  deps: KubernetesDeps,
  ctx: OperationContext,
  r: Realise,
): Promise<VnfcResourceInfo[]> {
  const vdus: VduTarget[] = r.vdus.flatMap((v) => {
    const workload = r.workloads.get(v.vduId);
    return workload ? [{ ...v, workload }] : [];
  });
  return converge(client, deps, ctx, {
    namespace: r.namespace,
    apply: vdus.map((v) => ({ object: v.workload, body: helmStamp(v.workload, ctx, r.namespace, v.vduId) })),
    vdus,
    before: r.before,
    ...(r.replaced ? { replaced: r.replaced } : {}),
  });
}

/**
 * Instantiate: the request's manifests applied (server-side, labelled for the instance and op
 * occ) in its namespace, each VDU's workload with as many replicas as the plan has VNFCs of it,
 * then waited for; the pods become the VNFCs. VDUs the request's manifests do not realise get
 * none, as in Tacker (a request that realises none of the plan's VDUs is refused). A retry applies the same objects again (nothing
 * is duplicated) and reads the same pods. A request with a Helm chart (helm_chart_path) installs it instead (helm/).
 */
import type { DriverResult, InstantiatePlan, OperationContext } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { converge, idsByVdu } from '../converge.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { DEF_FILES, defFiles, design } from '../design.ts';
import { helmInstantiate } from '../helm/instantiate.ts';
import { chartPath } from '../helm/request.ts';
import { infoOf } from '../info.ts';
import { type KubeState, refOf } from '../state.ts';
import { requireWorkloads, stamped } from '../workloads.ts';

export async function instantiate(
  deps: KubernetesDeps,
  ctx: OperationContext,
  plan: InstantiatePlan,
): Promise<DriverResult> {
  const chart = chartPath(ctx.additionalParams);
  if (chart !== undefined) return helmInstantiate(deps, ctx, plan, chart);
  const files = defFiles(ctx.additionalParams, 'Instantiate');
  const d = await design(deps, ctx, files);
  // As Tacker: a VDU no manifest of the request realises has no VNFCs (a package may hold
  // several alternatives; the request picks its files).
  const wanted = idsByVdu(plan.vnfcs.filter((v) => d.workloads.has(v.vduId)));
  if (wanted.size === 0) requireWorkloads(d.workloads, idsByVdu(plan.vnfcs).keys(), files);
  const vduOf = new Map([...d.workloads].map(([vduId, o]) => [o, vduId]));
  const apply = d.objects.map((object) => {
    const vduId = vduOf.get(object);
    return {
      object,
      body: stamped(object, {
        instanceId: ctx.instanceId,
        opOccId: ctx.opOccId,
        namespace: d.namespace,
        ...(vduId ? { vduId, replicas: wanted.get(vduId)?.length ?? 0 } : {}),
      }),
    };
  });
  const bodyOf = new Map(apply.map((a) => [a.object, a.body]));
  const state: KubeState = {
    namespace: d.namespace,
    tenant: d.namespace,
    [DEF_FILES]: files,
    vdu_reses: Object.fromEntries(
      [...d.workloads].map(([vduId, o]) => [vduId, bodyOf.get(o) as Record<string, unknown>]),
    ),
    resources: d.objects.map(refOf),
  };
  const vnfcs = await withClient(deps, ctx.vim, (client) =>
    converge(client, deps, ctx, {
      namespace: d.namespace,
      apply,
      vdus: [...d.workloads].map(([vduId, workload]) => ({
        vduId,
        workload,
        keep: [],
        add: wanted.get(vduId) ?? [],
      })),
      before: [],
    }),
  );
  // The plan's order (the engine's), not the pods'.
  const order = new Map(plan.vnfcs.map((v, i) => [v.id, i]));
  vnfcs.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const info = infoOf(ctx.flavourId, vnfcs, state, plan);
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}

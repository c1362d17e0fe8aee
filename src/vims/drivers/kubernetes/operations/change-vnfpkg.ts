/**
 * Change current VNF package (Tacker's RollingUpdate): the new package's
 * `lcm-kubernetes-def-files` are applied in the instance's namespace — the workloads only of the
 * VDUs the plan names (`vdu_params`), with the replicas they have, their pod template marked with
 * the op occ so that every pod is replaced by a rolling update even when the image is the same —
 * and the rollout is waited for. VNFCs keep their ids (MODIFIED: a new pod). The state before is
 * the instance's, which the rollback applies again. A Helm instance's release is upgraded with the
 * new package's chart instead (helm/).
 */
import type { ChangeVnfpkgPlan, DriverResult, OperationContext } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { converge, idsByVdu } from '../converge.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { DEF_FILES, defFiles, design } from '../design.ts';
import { helmChangeVnfpkg, isHelm } from '../helm/operations.ts';
import { infoOf } from '../info.ts';
import { CHANGED_BY } from '../names.ts';
import { type KubeState, refOf, stateOf, storedWorkload } from '../state.ts';
import { requireWorkloads, stamped } from '../workloads.ts';

/** Marks a workload's pod template with the op occ (its pods are then all replaced). */
export function markTemplate(body: Record<string, unknown>, opOccId: string): Record<string, unknown> {
  const spec = body.spec as
    | { template?: { metadata?: { annotations?: Record<string, string> } } }
    | undefined;
  if (!spec?.template) return body;
  spec.template.metadata = spec.template.metadata ?? {};
  spec.template.metadata.annotations = { ...spec.template.metadata.annotations, [CHANGED_BY]: opOccId };
  return body;
}

export async function changeVnfpkg(
  deps: KubernetesDeps,
  ctx: OperationContext,
  plan: ChangeVnfpkgPlan,
): Promise<DriverResult> {
  const current = ctx.current;
  const state = stateOf(current);
  if (isHelm(state)) {
    const done = await helmChangeVnfpkg(deps, ctx, state, plan);
    const info = infoOf(current?.flavourId ?? ctx.flavourId, done.vnfcs, done.state, {
      ...(current?.scaleStatus ? { scaleStatus: current.scaleStatus } : {}),
      ...(current?.maxScaleLevels ? { maxScaleLevels: current.maxScaleLevels } : {}),
    });
    return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
  }
  const before = current?.vnfcResourceInfo ?? [];
  const files = defFiles(ctx.additionalParams, 'Change current VNF package');
  const d = await design(deps, ctx, files, state.namespace);
  const changing = new Set(before.filter((v) => plan.vnfcs.includes(v.id)).map((v) => v.vduId));
  requireWorkloads(d.workloads, changing, files);
  const counts = idsByVdu(before);
  const vduOf = new Map([...d.workloads].map(([vduId, o]) => [o, vduId]));
  const apply = d.objects
    .filter((o) => !vduOf.has(o) || changing.has(vduOf.get(o) as string))
    .map((object) => {
      const vduId = vduOf.get(object);
      const body = stamped(object, {
        instanceId: ctx.instanceId,
        opOccId: ctx.opOccId,
        namespace: state.namespace,
        ...(vduId ? { vduId, replicas: counts.get(vduId)?.length ?? 0 } : {}),
      });
      return { object, body: vduId ? markTemplate(body, ctx.opOccId) : body };
    });
  const bodyOf = new Map(apply.map((a) => [a.object, a.body]));
  const vdu_reses = { ...state.vdu_reses };
  for (const [vduId, o] of d.workloads)
    if (changing.has(vduId)) vdu_reses[vduId] = bodyOf.get(o) as Record<string, unknown>;
  const refs = new Map([...state.resources, ...d.objects.map(refOf)].map((r) => [`${r.kind}/${r.name}`, r]));
  const next: KubeState = { ...state, [DEF_FILES]: files, vdu_reses, resources: [...refs.values()] };
  const replaced = new Set(
    before.filter((v) => changing.has(v.vduId)).map((v) => v.computeResource.resourceId),
  );
  const vnfcs = await withClient(deps, ctx.vim, (client) =>
    converge(client, deps, ctx, {
      namespace: state.namespace,
      apply,
      vdus: Object.entries(vdu_reses).map(([vduId, body]) => ({
        vduId,
        workload: storedWorkload(vduId, body),
        keep: counts.get(vduId) ?? [],
        add: [],
      })),
      before,
      replaced,
    }),
  );
  const info = infoOf(current?.flavourId ?? ctx.flavourId, vnfcs, next, {
    ...(current?.scaleStatus ? { scaleStatus: current.scaleStatus } : {}),
    ...(current?.maxScaleLevels ? { maxScaleLevels: current.maxScaleLevels } : {}),
  });
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}

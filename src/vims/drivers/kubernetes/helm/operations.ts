/**
 * Scale, change of package, whole-VNF heal and the rollbacks of a Helm instance, each a helm
 * action on its release (step.ts): scale = `upgrade --reuse-values` with the VDUs' replica keys;
 * change of package = `upgrade` with the new package's chart (values kept); whole heal = the same
 * chart upgraded again (what was deleted comes back); a rollback of scale out or change of package
 * = `rollback` to the revision the instance ran before the operation.
 */
import type { ChangeVnfpkgPlan, OperationContext, ScalePlan } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { idsByVdu } from '../converge.ts';
import type { KubernetesDeps } from '../deps.ts';
import type { HelmState, KubeState } from '../state.ts';
import { requireValueNames } from './instantiate.ts';
import { chartFile, installOrUpgrade, rollbackTo } from './release.ts';
import { chartPath, parameterSets, replicaSets } from './request.ts';
import { helmStep } from './step.ts';

type HelmInstance = KubeState & { helm: HelmState };

export const isHelm = (state: KubeState): state is HelmInstance => state.helm !== undefined;

const counts = (vdus: { vduId: string; keep: string[]; add: string[] }[]) =>
  new Map(vdus.map((v) => [v.vduId, v.keep.length + v.add.length]));

function vdusAfter(
  ctx: OperationContext,
  state: HelmInstance,
  remove: ReadonlySet<string>,
  add: Map<string, string[]>,
) {
  const ids = idsByVdu(ctx.current?.vnfcResourceInfo ?? []);
  return Object.keys(state.vdu_reses).map((vduId) => ({
    vduId,
    keep: (ids.get(vduId) ?? []).filter((id) => !remove.has(id)),
    add: add.get(vduId) ?? [],
  }));
}

export function helmScale(deps: KubernetesDeps, ctx: OperationContext, state: HelmInstance, plan: ScalePlan) {
  const add = idsByVdu(plan.add);
  const remove = new Set(plan.remove);
  const before = ctx.current?.vnfcResourceInfo ?? [];
  requireValueNames(state.helm.valueNames, [
    ...add.keys(),
    ...before.filter((v) => remove.has(v.id)).map((v) => v.vduId),
  ]);
  const vdus = vdusAfter(ctx, state, remove, add);
  return helmStep(deps, ctx, state, {
    vdus,
    removing: before.filter((v) => remove.has(v.id)).map((v) => v.computeResource.resourceId),
    action: async (helm, dir) => {
      const chart = await chartFile(deps, ctx.packageId, ctx.vnfd, state.helm.chart, dir);
      await installOrUpgrade(helm, deps, {
        release: state.helm.release,
        chart,
        reuseValues: true,
        sets: replicaSets(state.helm.valueNames, counts(vdus)),
      });
    },
  });
}

/** Whole-VNF heal: the release's chart upgraded again with its values. */
export function helmReinstall(deps: KubernetesDeps, ctx: OperationContext, state: HelmInstance) {
  return helmStep(deps, ctx, state, {
    vdus: vdusAfter(ctx, state, new Set(), new Map()),
    action: async (helm, dir) => {
      const chart = await chartFile(deps, ctx.packageId, ctx.vnfd, state.helm.chart, dir);
      await installOrUpgrade(helm, deps, { release: state.helm.release, chart, reuseValues: true, sets: [] });
    },
  });
}

export function helmChangeVnfpkg(
  deps: KubernetesDeps,
  ctx: OperationContext,
  state: HelmInstance,
  _plan: ChangeVnfpkgPlan,
) {
  const path = chartPath(ctx.additionalParams) ?? state.helm.chart;
  const vdus = vdusAfter(ctx, state, new Set(), new Map());
  return helmStep(deps, ctx, state, {
    vdus,
    chart: path,
    action: async (helm, dir) => {
      const chart = await chartFile(deps, ctx.packageId, ctx.vnfd, path, dir);
      await installOrUpgrade(helm, deps, {
        release: state.helm.release,
        chart,
        reuseValues: true,
        sets: [...parameterSets(ctx.additionalParams), ...replicaSets(state.helm.valueNames, counts(vdus))],
      });
    },
  });
}

/** Back to the revision the instance ran before the operation; the pods it made go. */
export function helmRollback(deps: KubernetesDeps, ctx: OperationContext, state: HelmInstance) {
  const revision = state.helm.revision;
  if (!Number.isInteger(revision)) {
    throw new InfraError('INVALID_REQUEST', 'The instance records no Helm revision to roll back to.');
  }
  return helmStep(deps, ctx, state, {
    vdus: vdusAfter(ctx, state, new Set(), new Map()),
    removeUnknown: true,
    action: (helm) => rollbackTo(helm, deps, state.helm.release, revision),
  });
}

/**
 * Instantiate from a Helm chart: the package's chart installed as the instance's release (each
 * VDU's replicas set through its helm_value_names key to the plan's VNFCs of it, helm_parameters
 * with --set), waited for, and its workloads' pods read back as the VNFCs. A retry upgrades the
 * release it installed (or installs again after a failed first install).
 */
import type { DriverResult, InstantiatePlan, OperationContext } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { idsByVdu } from '../converge.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { flavourOf } from '../design.ts';
import { infoOf } from '../info.ts';
import { targetNamespace } from '../manifests/objects.ts';
import { type KubeState, refOf } from '../state.ts';
import { requireWorkloads } from '../workloads.ts';
import { realise, releaseObjects, releaseWorkloads } from './realise.ts';
import { chartFile, deployedRevision, installOrUpgrade, manifestOf } from './release.ts';
import { parameterSets, releaseName, replicaSets, valueNames } from './request.ts';
import { withHelm } from './run.ts';

/** Each VDU's replica key, required for every VDU the plan has VNFCs of. */
export function requireValueNames(names: Record<string, string>, vduIds: Iterable<string>): void {
  const missing = [...new Set(vduIds)].filter((v) => !names[v]);
  if (missing.length) {
    throw new InfraError(
      'INVALID_REQUEST',
      `additionalParams.helm_value_names has no replica key for ${missing.join(', ')}: a VDU's replicas are set through the chart's values.`,
      { vduIds: missing },
    );
  }
}

export async function helmInstantiate(
  deps: KubernetesDeps,
  ctx: OperationContext,
  plan: InstantiatePlan,
  chart: string,
): Promise<DriverResult> {
  const names = valueNames(ctx.additionalParams);
  const sets = parameterSets(ctx.additionalParams);
  const namespace = targetNamespace(ctx.additionalParams?.namespace, []);
  const flavour = flavourOf(ctx.vnfd, ctx.flavourId);
  const wanted = idsByVdu(plan.vnfcs);
  requireValueNames(names, wanted.keys());
  const counts = new Map(Object.keys(names).map((v) => [v, wanted.get(v)?.length ?? 0]));
  const release = releaseName(ctx.instanceId);
  const done = await withClient(deps, ctx.vim, async (client) => {
    // The API server passes the outbound policy before helm is given its address.
    await client.version(ctx.signal);
    return withHelm(deps.config, ctx.vim, namespace, ctx.signal, async (helm, dir) => {
      const file = await chartFile(deps, ctx.packageId, ctx.vnfd, chart, dir);
      await installOrUpgrade(helm, deps, {
        release,
        chart: file,
        sets: [...sets, ...replicaSets(names, counts)],
      });
      const objects = releaseObjects(await manifestOf(helm, release), deps);
      const workloads = releaseWorkloads(flavour, objects, ctx.additionalParams);
      requireWorkloads(workloads, wanted.keys(), [chart]);
      const vnfcs = await realise(client, deps, ctx, {
        namespace,
        workloads,
        vdus: [...wanted].map(([vduId, add]) => ({ vduId, keep: [], add })),
        before: [],
      });
      return { vnfcs, objects, workloads, revision: await deployedRevision(helm, release) };
    });
  });
  const state: KubeState = {
    namespace,
    tenant: namespace,
    vdu_reses: Object.fromEntries([...done.workloads].map(([vduId, o]) => [vduId, o.body])),
    resources: done.objects.map(refOf),
    helm: { release, chart, valueNames: names, revision: done.revision },
  };
  const order = new Map(plan.vnfcs.map((v, i) => [v.id, i]));
  const vnfcs = done.vnfcs.sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const info = infoOf(ctx.flavourId, vnfcs, state, plan);
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}

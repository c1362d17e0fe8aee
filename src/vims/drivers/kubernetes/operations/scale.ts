/**
 * Scale (and scale to level): each VDU's replicas become its VNFCs after the plan (those kept
 * plus those added); the VNFCs the plan removes are the pods Kubernetes removes.
 */
import type { DriverResult, OperationContext, ScalePlan } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { idsByVdu } from '../converge.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { helmScale, isHelm } from '../helm/operations.ts';
import { infoOf } from '../info.ts';
import { scaleTo } from '../scale-to.ts';
import { stateOf, storedWorkload } from '../state.ts';
import { requireWorkloads } from '../workloads.ts';

export async function scale(
  deps: KubernetesDeps,
  ctx: OperationContext,
  plan: ScalePlan,
): Promise<DriverResult> {
  const current = ctx.current;
  const state = stateOf(current);
  const add = idsByVdu(plan.add);
  const done = isHelm(state)
    ? await helmScale(deps, ctx, state, plan)
    : await manifestScale(deps, ctx, state, plan, add);
  const info = infoOf(current?.flavourId ?? ctx.flavourId, done.vnfcs, done.state, {
    scaleStatus: plan.scaleStatus,
    ...(current?.maxScaleLevels ? { maxScaleLevels: current.maxScaleLevels } : {}),
  });
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}

async function manifestScale(
  deps: KubernetesDeps,
  ctx: OperationContext,
  state: ReturnType<typeof stateOf>,
  plan: ScalePlan,
  add: Map<string, string[]>,
) {
  const current = ctx.current;
  requireWorkloads(
    new Map(Object.entries(state.vdu_reses).map(([vduId, body]) => [vduId, storedWorkload(vduId, body)])),
    add.keys(),
    state['lcm-kubernetes-def-files'] ?? [],
  );
  const remove = new Set(plan.remove);
  const keep = new Set((current?.vnfcResourceInfo ?? []).map((v) => v.id).filter((id) => !remove.has(id)));
  return withClient(deps, ctx.vim, (client) =>
    scaleTo(client, deps, ctx, state, current as NonNullable<typeof current>, { keep, add }),
  );
}

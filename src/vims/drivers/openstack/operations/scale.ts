/**
 * Scale (out, in, to a level): the stack's VNFCs less those the engine names, plus the new ones
 * where the grant places them, in one stack update — a VNFC is its own nested stack, so the
 * others are left as they are. A retry recomputes from the state before the first attempt.
 */
import type { DriverResult, OperationContext, ScalePlan } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { applyChange } from '../apply-change.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { vnfcStates } from '../design.ts';
import { changedState, currentStack, startingState } from '../prior-state.ts';

export async function scale(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: ScalePlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const base = startingState((await currentStack(client, ctx)).state, ctx);
  const unknown = plan.remove.filter((id) => !base.vnfcs.some((v) => v.id === id));
  if (unknown.length) {
    throw new InfraError(
      'INVALID_REQUEST',
      `Scale in names VNFCs the stack does not hold: ${unknown.join(', ')}.`,
      {
        vnfcIds: unknown,
      },
    );
  }
  const removed = new Set(plan.remove);
  const added = await vnfcStates(client, deps, { ...ctx, flavourId: base.flavourId }, plan.add);
  const next = changedState(base, ctx, {
    // Newest first, as vnfcResourceInfo.
    vnfcs: [...added, ...base.vnfcs.filter((v) => !removed.has(v.id))],
    scaleStatus: plan.scaleStatus,
  });
  return applyChange(deps, client, ctx, next);
}

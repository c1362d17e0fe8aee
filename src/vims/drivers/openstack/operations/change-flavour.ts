/**
 * Change flavour: the stack is updated to the target flavour's VNF as the engine plans it — the
 * VNFCs it keeps (same ids) stay where they are, the others come and go, the flavour's own
 * templates (its BaseHOT, or one generated from its VDUs) replace the old ones.
 */
import type { ChangeFlavourPlan, DriverResult, OperationContext } from '../../../contract.ts';
import { applyChange } from '../apply-change.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { vnfcStates } from '../design.ts';
import { changedState, currentStack, startingState } from '../prior-state.ts';

export async function changeFlavour(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: ChangeFlavourPlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const base = startingState((await currentStack(client, ctx)).state, ctx);
  const target = plan.target;
  const zones = new Map(base.vnfcs.map((v) => [v.id, v.zone]));
  // The target flavour's flavour and image for every VNFC; a kept VNFC (same id) keeps its zone.
  const made = await vnfcStates(client, deps, { ...ctx, flavourId: plan.newFlavourId }, target.vnfcs);
  const vnfcs = made.map((v) => {
    const zone = zones.get(v.id);
    return zone ? { ...v, zone } : v;
  });
  const next = changedState(base, ctx, {
    flavourId: plan.newFlavourId,
    vnfcs,
    virtualLinks: [...target.virtualLinks],
    extVirtualLinks: [...target.extVirtualLinks],
    extManagedVirtualLinks: [...target.extManagedVirtualLinks],
    scaleStatus: target.scaleStatus,
    maxScaleLevels: target.maxScaleLevels,
  });
  return applyChange(deps, client, ctx, next);
}

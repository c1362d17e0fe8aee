/**
 * Change current VNF package: the VNFCs the engine names take the new package's flavour and
 * image for their VDU (the grant's, else the package's, uploaded), and the stack is updated with
 * the new package's templates (its BaseHOT, as Tacker's change_vnfpkg). Heat rebuilds a server
 * whose image changes in place (same server, same ports) and resizes one whose flavour changes.
 */
import type { ChangeVnfpkgPlan, DriverResult, OperationContext } from '../../../contract.ts';
import { applyChange, flavourIn } from '../apply-change.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { vnfcStates } from '../design.ts';
import { changedState, currentStack, startingState } from '../prior-state.ts';

export async function changeVnfpkg(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: ChangeVnfpkgPlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const base = startingState((await currentStack(client, ctx)).state, ctx);
  // The target package's flavour of the same id must exist.
  flavourIn(plan.vnfd, base.flavourId);
  const target: OperationContext = { ...ctx, vnfd: plan.vnfd, flavourId: base.flavourId };
  const named = new Set(plan.vnfcs);
  const renewed = await vnfcStates(
    client,
    deps,
    target,
    base.vnfcs.filter((v) => named.has(v.id)),
  );
  const vnfcs = base.vnfcs.map((v) => {
    const next = renewed.find((r) => r.id === v.id);
    return next ? { ...next, ...(v.zone ? { zone: v.zone } : {}) } : v;
  });
  const next = changedState(base, target, { vnfcs, packageId: ctx.packageId });
  return applyChange(deps, client, target, next);
}

/**
 * Change external connectivity: the request's external VLs replace those of the same id (others
 * are kept) and the stack is updated — the ports of the CPs they carry move to the new networks
 * (Heat replaces a port whose network changes and re-attaches it to its server).
 */
import type { ChangeExtConnPlan, DriverResult, OperationContext } from '../../../contract.ts';
import { applyChange } from '../apply-change.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { changedState, currentStack, startingState } from '../prior-state.ts';

export async function changeExtConn(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: ChangeExtConnPlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const base = startingState((await currentStack(client, ctx)).state, ctx);
  const changed = new Set(plan.extVirtualLinks.map((l) => l.id));
  const extVirtualLinks = [
    ...base.extVirtualLinks.filter((l) => !changed.has(l.id)),
    ...plan.extVirtualLinks,
  ];
  return applyChange(deps, client, ctx, changedState(base, ctx, { extVirtualLinks }));
}

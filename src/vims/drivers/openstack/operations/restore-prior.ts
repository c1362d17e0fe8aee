/**
 * The rollback of an operation that changed the stack (scale out, change flavour, external
 * connectivity or package): the state before the op occ, kept in the stack's state, is applied
 * again — what the op occ added goes, what it changed comes back, and the images it brought to
 * Glance leave unless another instance uses them. When the stack does not hold the op occ's
 * change (it never got there, or it was rolled back already), only those images go.
 */
import type { DriverResult, OperationContext } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { applyChange } from '../apply-change.ts';
import { clientOf, cloudKeyOf, type OpenStackDeps } from '../deps.ts';
import { releaseImages } from '../images.ts';
import { type ChangedState, currentStack } from '../prior-state.ts';
import { readInfo } from '../read-info.ts';

export async function restorePrior(deps: OpenStackDeps, ctx: OperationContext): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const { stack, state } = await currentStack(client, ctx);
  const now = await readInfo(client, stack, state, ctx.vim.id, ctx.signal);
  const restored =
    state.opOccId !== ctx.opOccId || !state.prior
      ? { changes: resourceChanges(now, now), instantiatedVnfInfo: now }
      : // The prior state as it was (its own op occ), so a second rollback finds nothing to undo.
        await applyChange(deps, client, { ...ctx, current: now }, state.prior as ChangedState);
  // The images the op occ brought (a new package's, uploaded to Glance) go with it.
  await releaseImages(
    client,
    deps.db,
    { cloud: await cloudKeyOf(client, ctx.signal), instanceId: ctx.instanceId, opOccId: ctx.opOccId },
    ctx.signal,
  );
  return restored;
}

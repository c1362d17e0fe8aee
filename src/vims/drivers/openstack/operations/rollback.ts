/**
 * Rollback of what an op occ did. Instantiate: the stack goes with everything in it and the
 * images the op occ uploaded (unless another instance uses them), leaving nothing it made. Scale
 * out and the changes: the state before the op occ is applied again (restore-prior.ts).
 */
import type { DriverResult, OperationContext, RollbackableOperation } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { removeStack } from '../remove-stack.ts';
import { restorePrior } from './restore-prior.ts';

type Rollback = (deps: OpenStackDeps, ctx: OperationContext) => Promise<DriverResult>;

export const ROLLBACKS: Partial<Record<RollbackableOperation, Rollback>> = {
  async INSTANTIATE(deps, ctx) {
    const before = await removeStack(clientOf(deps, ctx.vim), deps, ctx, { imagesOfOpOcc: ctx.opOccId });
    return { changes: resourceChanges(before, undefined) };
  },
  SCALE_OUT: restorePrior,
  CHANGE_FLAVOUR: restorePrior,
  CHANGE_EXT_CONN: restorePrior,
  CHANGE_VNFPKG: restorePrior,
};

export async function rollback(
  deps: OpenStackDeps,
  ctx: OperationContext,
  operation: RollbackableOperation,
): Promise<DriverResult> {
  const run = ROLLBACKS[operation];
  if (!run) {
    throw new InfraError(
      'INVALID_REQUEST',
      `Rollback of ${operation} is not supported by the OpenStack driver.`,
    );
  }
  return run(deps, ctx);
}

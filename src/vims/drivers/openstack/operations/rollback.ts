/**
 * Rollback of what an op occ did. Instantiate: the stack goes with everything in it and the
 * images the op occ uploaded (unless another instance uses them), leaving nothing it made.
 * Operations added with their own files register their rollback in ROLLBACKS.
 */
import type { DriverResult, OperationContext, RollbackableOperation } from '../../../contract.ts';
import { InfraError } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { removeStack } from '../remove-stack.ts';

type Rollback = (deps: OpenStackDeps, ctx: OperationContext) => Promise<DriverResult>;

export const ROLLBACKS: Partial<Record<RollbackableOperation, Rollback>> = {
  async INSTANTIATE(deps, ctx) {
    const before = await removeStack(clientOf(deps, ctx.vim), deps, ctx, { imagesOfOpOcc: ctx.opOccId });
    return { changes: resourceChanges(before, undefined) };
  },
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

/**
 * Instantiate: the instance's stack made to hold every VNFC of the plan (created, or updated when
 * a previous attempt left one: a retry converges), then instantiatedVnfInfo read from it.
 */
import type { DriverResult, InstantiatePlan, OperationContext } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { applyStack } from '../apply-stack.ts';
import { clientOf, type OpenStackDeps } from '../deps.ts';
import { instantiateDesign } from '../design.ts';
import { readInfo } from '../read-info.ts';

export async function instantiate(
  deps: OpenStackDeps,
  ctx: OperationContext,
  plan: InstantiatePlan,
): Promise<DriverResult> {
  const client = clientOf(deps, ctx.vim);
  const { state, content } = await instantiateDesign(client, deps, ctx, plan);
  const stack = await applyStack(client, ctx.instanceId, content, state, ctx.signal);
  const info = await readInfo(client, stack, state, ctx.vim.id, ctx.signal);
  return { changes: resourceChanges(ctx.current, info), instantiatedVnfInfo: info };
}

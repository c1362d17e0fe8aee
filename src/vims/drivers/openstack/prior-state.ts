/**
 * The state a stack held before the op occ that changes it, kept in the new state (`prior`), so
 * that a retry recomputes the change from the same starting point (not from a half-applied
 * attempt) and a rollback re-applies exactly what was there.
 */
import { InfraError, type OperationContext } from '../../contract.ts';
import type { OpenStackClient } from './client/client.ts';
import type { Stack } from './client/heat.ts';
import { stackNameOf } from './names.ts';
import { type StackState, stateOf } from './stack-state.ts';

export interface ChangedState extends StackState {
  /** The state before the op occ `opOccId` (without its own prior). */
  prior?: StackState;
  /** The VNF package whose templates the stack was built from. */
  packageId?: string;
}

/** The instance's stack and the state it holds now. */
export async function currentStack(
  client: OpenStackClient,
  ctx: OperationContext,
): Promise<{ stack: Stack; state: ChangedState }> {
  const found = await client.heat.findStack(stackNameOf(ctx.instanceId), ctx.signal);
  const stack = found && ((await client.heat.waitStack(found, { signal: ctx.signal })) ?? undefined);
  const state = stack && stateOf(stack);
  if (!stack || !state) {
    throw new InfraError(
      'NOT_FOUND',
      `VNF instance ${ctx.instanceId} has no Heat stack ${stackNameOf(ctx.instanceId)} on this VIM.`,
    );
  }
  return { stack, state };
}

/** What the op occ starts from: the current state, or on its retry the state before its first attempt. */
export function startingState(state: ChangedState, ctx: OperationContext): ChangedState {
  return state.opOccId === ctx.opOccId && state.prior ? state.prior : state;
}

/** The state after the op occ: `base` changed, remembering `base` as the prior. */
export function changedState(
  base: ChangedState,
  ctx: OperationContext,
  change: Partial<ChangedState>,
): ChangedState {
  const { prior: _older, ...before } = base;
  return { ...before, ...change, opOccId: ctx.opOccId, prior: before };
}

/**
 * Terminate: every object Bosun applied for the instance (found by its label, nothing else) is
 * deleted — gracefully with the requested (or default) grace period for the pods, forcefully
 * with none — and waited for. A retry deletes what is left. A Helm instance's release is uninstalled first.
 */
import type { DriverResult, OperationContext, TerminatePlan } from '../../../contract.ts';
import { resourceChanges } from '../../resource-changes.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { helmRemove } from '../helm/terminate.ts';
import { removeInstance } from '../remove.ts';
import { stateOf } from '../state.ts';

export async function terminate(
  deps: KubernetesDeps,
  ctx: OperationContext,
  plan: TerminatePlan,
): Promise<DriverResult> {
  const state = stateOf(ctx.current);
  const { namespace } = state;
  const grace =
    plan.terminationType === 'FORCEFUL'
      ? 0
      : (plan.gracefulTerminationTimeout ?? deps.config.defaultGracefulTimeoutS);
  if (state.helm) await helmRemove(deps, ctx, namespace, grace);
  else
    await withClient(deps, ctx.vim, (client) =>
      removeInstance(client, deps.config, namespace, ctx.instanceId, grace, ctx.signal),
    );
  return { changes: resourceChanges(ctx.current, undefined) };
}

/**
 * Terminate (and the rollback of instantiate) of a Helm instance: its release uninstalled, then
 * whatever of the instance is left (pods still terminating) deleted and waited for.
 */
import type { OperationContext } from '../../../contract.ts';
import { type KubernetesDeps, withClient } from '../deps.ts';
import { removeInstance } from '../remove.ts';
import { uninstall } from './release.ts';
import { releaseName } from './request.ts';
import { withHelm } from './run.ts';

export async function helmRemove(
  deps: KubernetesDeps,
  ctx: OperationContext,
  namespace: string,
  grace: number,
): Promise<void> {
  await withClient(deps, ctx.vim, async (client) => {
    await client.version(ctx.signal);
    await withHelm(deps.config, ctx.vim, namespace, ctx.signal, (helm) =>
      uninstall(helm, releaseName(ctx.instanceId)),
    );
    await removeInstance(client, deps.config, namespace, ctx.instanceId, grace, ctx.signal);
  });
}

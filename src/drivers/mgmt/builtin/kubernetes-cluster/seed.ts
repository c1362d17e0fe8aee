/**
 * The master the driver works through: the first master (not being healed or removed) whose etcd
 * member answers as healthy. Every change to the cluster's membership goes through it; with none
 * healthy there is nothing safe to change, and the hook says so.
 */
import { BuiltinDriverError } from '../driver.ts';
import type { ClusterNode } from './cluster.ts';
import type { DriverContext } from './context.ts';
import { clientUrl, isHealthy } from './etcd.ts';
import { onNode } from './node-shell.ts';

export async function healthyMaster(
  ctx: DriverContext,
  candidates: ClusterNode[],
): Promise<ClusterNode | undefined> {
  for (const master of candidates) {
    const healthy = await onNode(ctx, master, (shell) =>
      isHealthy(shell, clientUrl(ctx.settings, master.nicAddress)),
    ).catch((err: unknown) => {
      // An unreachable master is not the seed; another may be. A refused host key or refused
      // credentials are not passed over: they need the operator.
      const refused =
        err instanceof BuiltinDriverError &&
        (err.facts.hostKey === 'refused' || err.facts.auth === 'refused');
      if (err instanceof BuiltinDriverError && !refused) {
        ctx.log.push(`${master.label}: not usable (${err.message.slice(0, 200)})`);
        return false;
      }
      throw err;
    });
    if (healthy) return master;
  }
  return undefined;
}

export async function requireHealthyMaster(
  ctx: DriverContext,
  candidates: ClusterNode[],
): Promise<ClusterNode> {
  const seed = await healthyMaster(ctx, candidates);
  if (seed) return seed;
  throw new BuiltinDriverError(
    `No healthy master to work through: none of ${candidates.map((m) => m.name).join(', ') || '(no master left)'} answered with a healthy etcd member. Heal the whole VNF (a heal without vnfcInstanceId) to rebuild the cluster.`,
    { commandsRun: ctx.log.join('\n') },
  );
}

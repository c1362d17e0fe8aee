/**
 * Building the whole cluster on the instance's nodes (instantiate_end, and heal_end of a whole-VNF
 * heal): the first master bootstrapped unless a master already answers, the other masters joined
 * through it, the workers joined, each master in HAProxy; then the kubeconfig read for the answer.
 * Each step is checked first, so a retry after a failure half-way finishes what is left.
 */
import type { HookOutput } from '../../hook-contract.ts';
import { clusterAnswer } from './answer.ts';
import { clusterOf } from './cluster.ts';
import type { DriverContext } from './context.ts';
import { putInRotation } from './haproxy.ts';
import { haproxyNode } from './haproxy-node.ts';
import { readKubeconfig } from './kubeadm.ts';
import { bootstrapMaster, joinMaster, joinWorkers } from './membership.ts';
import { onNode } from './node-shell.ts';
import { healthyMaster } from './seed.ts';

export async function buildCluster(ctx: DriverContext): Promise<HookOutput> {
  const cluster = clusterOf(ctx, ctx.call.input.vnfInstance.instantiatedVnfInfo);
  let seed = await healthyMaster(ctx, cluster.masters);
  if (!seed) {
    seed = cluster.masters[0] as NonNullable<typeof seed>;
    await bootstrapMaster(ctx, seed);
  }
  const first = seed;
  await onNode(ctx, haproxyNode(ctx), (lb) => putInRotation(lb, ctx.settings, first.name, first.nicAddress));
  for (const master of cluster.masters) if (master !== seed) await joinMaster(ctx, seed, master);
  await joinWorkers(ctx, seed, cluster.workers);
  const kubeconfig = await onNode(ctx, seed, readKubeconfig);
  return clusterAnswer(ctx, cluster, kubeconfig);
}

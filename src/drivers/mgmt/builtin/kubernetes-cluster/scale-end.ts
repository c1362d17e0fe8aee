/** scale_end of a scale out: the workers the VIM added joined, each with a fresh token. */
import type { BuiltinHook } from '../driver.ts';
import { nodesAnswer } from './answer.ts';
import { clusterOf } from './cluster.ts';
import { contextOf } from './context.ts';
import { joinWorkers } from './membership.ts';
import { requireHealthyMaster } from './seed.ts';

export const scaleEnd: BuiltinHook = async (call) => {
  const ctx = contextOf(call);
  const cluster = clusterOf(ctx, call.input.vnfInstance.instantiatedVnfInfo);
  const added = new Set(
    (call.input.resourceChanges?.affectedVnfcs ?? [])
      .filter((c) => c.changeType === 'ADDED')
      .map((c) => c.id),
  );
  const workers = cluster.workers.filter((w) => added.has(w.vnfc.id));
  if (workers.length > 0) await joinWorkers(ctx, await requireHealthyMaster(ctx, cluster.masters), workers);
  return nodesAnswer(ctx, cluster, added);
};

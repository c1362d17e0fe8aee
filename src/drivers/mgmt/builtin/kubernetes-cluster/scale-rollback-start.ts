/**
 * scale_rollback_start of a failed scale out: the workers it added that joined the cluster are
 * drained and deleted through a healthy master before the VIM removes their VMs, so the cluster's
 * nodes are as before the scale out.
 */
import type { BuiltinHook } from '../driver.ts';
import { clusterOf } from './cluster.ts';
import { contextOf } from './context.ts';
import { removeWorker } from './membership.ts';
import { requireHealthyMaster } from './seed.ts';

export const scaleRollbackStart: BuiltinHook = async (call) => {
  if (call.input.request.type !== 'SCALE_OUT') return {};
  const ctx = contextOf(call);
  const cluster = clusterOf(ctx, call.input.vnfInstance.instantiatedVnfInfo);
  const added = new Set(
    (call.input.resourceChanges?.affectedVnfcs ?? [])
      .filter((c) => c.changeType === 'ADDED')
      .map((c) => c.id),
  );
  const workers = cluster.workers.filter((w) => added.has(w.vnfc.id));
  if (workers.length === 0) return {};
  const seed = await requireHealthyMaster(ctx, cluster.masters);
  for (const worker of workers) await removeWorker(ctx, seed, worker);
  return {};
};

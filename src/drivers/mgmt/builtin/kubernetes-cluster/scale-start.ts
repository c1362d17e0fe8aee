/**
 * scale_start of a scale in: the workers leaving (the COMPUTE resources the grant request
 * removes) drained and deleted through a healthy master. Masters are not scaled: a scale in that
 * would remove one is refused before the VIM removes anything.
 */
import type { BuiltinHook } from '../driver.ts';
import { BuiltinDriverError } from '../driver.ts';
import { clusterOf } from './cluster.ts';
import { contextOf } from './context.ts';
import { removeWorker } from './membership.ts';
import { requireHealthyMaster } from './seed.ts';

/** The VNFC ids a scale in removes: its grant request's COMPUTE removeResources. */
function leavingIds(grantRequest: Record<string, unknown> | undefined): Set<string> {
  const removed = (grantRequest?.removeResources ?? []) as { id: string; type: string }[];
  return new Set(removed.filter((r) => r.type === 'COMPUTE').map((r) => r.id));
}

export const scaleStart: BuiltinHook = async (call) => {
  if (call.input.request.type !== 'SCALE_IN') return {};
  const ctx = contextOf(call);
  const cluster = clusterOf(ctx, call.input.vnfInstance.instantiatedVnfInfo);
  const leaving = leavingIds(call.input.grantRequest);
  const master = cluster.masters.find((m) => leaving.has(m.vnfc.id));
  if (master)
    throw new BuiltinDriverError(
      `This scale in would remove ${master.label}: the kubernetes-cluster driver scales workers only (heal a master instead).`,
    );
  const workers = cluster.workers.filter((w) => leaving.has(w.vnfc.id));
  if (workers.length === 0) return {};
  const seed = await requireHealthyMaster(ctx, cluster.masters);
  for (const worker of workers) await removeWorker(ctx, seed, worker);
  return {};
};

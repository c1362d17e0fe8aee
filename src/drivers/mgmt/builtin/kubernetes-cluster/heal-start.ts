/**
 * heal_start. SOL002 (vnfcInstanceId): each master being healed leaves HAProxy's rotation, the
 * Kubernetes nodes and etcd (`member remove`, found by name or peer URL), through a healthy master
 * that is not healed; each worker is drained and deleted. Healing every master at once is refused
 * (etcd would lose its data): heal the whole VNF instead. SOL003 (no vnfcInstanceId): what
 * terminate_end does — the masters' servers leave HAProxy and the cluster's stored state is
 * cleared, for heal_end to build the cluster again.
 */
import type { BuiltinHook } from '../driver.ts';
import { BuiltinDriverError } from '../driver.ts';
import { clusterOf, healedVnfcIds } from './cluster.ts';
import { contextOf } from './context.ts';
import { removeMaster, removeWorker } from './membership.ts';
import { requireHealthyMaster } from './seed.ts';
import { forgetCluster } from './terminate-end.ts';

export const healStart: BuiltinHook = async (call) => {
  const ctx = contextOf(call);
  const info = call.input.vnfInstance.instantiatedVnfInfo;
  if (call.input.request.vnfcInstanceId === undefined) return forgetCluster(ctx, clusterOf(ctx, info));
  const cluster = clusterOf(ctx, info);
  const healed = healedVnfcIds(info, call.input.request.vnfcInstanceId);
  const masters = cluster.masters.filter((m) => healed.has(m.vnfc.id));
  const workers = cluster.workers.filter((w) => healed.has(w.vnfc.id));
  if (masters.length === 0 && workers.length === 0) return {};
  const healthy = cluster.masters.filter((m) => !healed.has(m.vnfc.id));
  if (masters.length > 0 && healthy.length === 0)
    throw new BuiltinDriverError(
      'Every master would be healed at once, which etcd cannot survive: heal them one at a time, or heal the whole VNF (a heal without vnfcInstanceId) to rebuild the cluster.',
    );
  const seed = await requireHealthyMaster(ctx, healthy);
  for (const master of masters) await removeMaster(ctx, seed, master);
  for (const worker of workers) await removeWorker(ctx, seed, worker);
  return {};
};

/**
 * heal_end. SOL002: on each new master VM, `member add` through a healthy master, etcd started
 * with `--initial-cluster-state existing`, `kubeadm join --control-plane`, its server back in
 * HAProxy's rotation; each new worker joined with a fresh token. SOL003: the cluster built again
 * as at instantiate.
 */
import type { BuiltinHook } from '../driver.ts';
import { nodesAnswer } from './answer.ts';
import { buildCluster } from './build-cluster.ts';
import { clusterOf, healedVnfcIds } from './cluster.ts';
import { contextOf } from './context.ts';
import { joinMaster, joinWorkers } from './membership.ts';
import { requireHealthyMaster } from './seed.ts';

export const healEnd: BuiltinHook = async (call) => {
  const ctx = contextOf(call);
  if (call.input.request.vnfcInstanceId === undefined) return buildCluster(ctx);
  const info = call.input.vnfInstance.instantiatedVnfInfo;
  const cluster = clusterOf(ctx, info);
  const healed = healedVnfcIds(info, call.input.request.vnfcInstanceId);
  const masters = cluster.masters.filter((m) => healed.has(m.vnfc.id));
  const workers = cluster.workers.filter((w) => healed.has(w.vnfc.id));
  if (masters.length === 0 && workers.length === 0) return {};
  const seed = await requireHealthyMaster(
    ctx,
    cluster.masters.filter((m) => !healed.has(m.vnfc.id)),
  );
  for (const master of masters) await joinMaster(ctx, seed, master);
  await joinWorkers(ctx, seed, workers);
  return nodesAnswer(ctx, cluster, healed);
};

/**
 * instantiate_rollback_start: before the VIM deletes the VMs of a failed instantiate, the HAProxy
 * node — which outlives them — loses the masters' servers the instantiate added, so the backend is
 * as it was before. (etcd and Kubernetes go with the VMs.)
 */
import type { BuiltinHook } from '../driver.ts';
import { clusterOf } from './cluster.ts';
import { contextOf } from './context.ts';
import { forgetCluster } from './terminate-end.ts';

export const instantiateRollbackStart: BuiltinHook = async (call) => {
  const ctx = contextOf(call);
  await forgetCluster(ctx, clusterOf(ctx, call.input.vnfInstance.instantiatedVnfInfo));
  return {};
};

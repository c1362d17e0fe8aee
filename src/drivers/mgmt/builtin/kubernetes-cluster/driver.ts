/**
 * The kubernetes-cluster driver (Tacker's kubernetes_mgmt.py and kubernetes_mgmt_v2.py): a VNF
 * that is a Kubernetes cluster — masters running etcd behind HAProxy, and workers — built at
 * instantiate, its workers joined and removed at scale, a master or worker healed by taking it out
 * of the cluster before its VM is replaced and joining the new one after, and the whole cluster
 * rebuilt by a heal of the whole VNF. Commands run on the nodes over SSH (additionalParams.ssh);
 * which VDUs are masters and workers, HAProxy and etcd come from
 * additionalParams.k8s_cluster_installation_param.
 */
import type { BuiltinDriver } from '../driver.ts';
import { closing } from './context.ts';
import { healEnd } from './heal-end.ts';
import { healStart } from './heal-start.ts';
import { instantiateEnd } from './instantiate-end.ts';
import { instantiateRollbackStart } from './instantiate-rollback-start.ts';
import { checkK8sParams, K8S_PARAMS_KEY, K8sClusterParamsSchema } from './params.ts';
import { scaleEnd } from './scale-end.ts';
import { scaleRollbackStart } from './scale-rollback-start.ts';
import { scaleStart } from './scale-start.ts';
import { terminateEnd } from './terminate-end.ts';

export const kubernetesClusterDriver: BuiltinDriver = {
  name: 'kubernetes-cluster',
  description:
    'builds a Kubernetes cluster (etcd on the masters, HAProxy in front) and keeps it whole through scale and heal of masters and workers',
  params: {
    key: K8S_PARAMS_KEY,
    schema: K8sClusterParamsSchema,
    check: checkK8sParams as (v: unknown) => void,
  },
  hooks: {
    instantiate_end: closing(instantiateEnd),
    scale_start: closing(scaleStart),
    scale_end: closing(scaleEnd),
    heal_start: closing(healStart),
    heal_end: closing(healEnd),
    terminate_end: closing(terminateEnd),
    instantiate_rollback_start: closing(instantiateRollbackStart),
    scale_rollback_start: closing(scaleRollbackStart),
  },
};

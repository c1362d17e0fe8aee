/**
 * The Kubernetes driver's names: the VIM types it serves (SOL003's and Tacker's alias) and the
 * labels Bosun puts on what it applies, by which it finds (and deletes) exactly its own objects.
 */

export const KUBERNETES_VIM_TYPES = ['ETSINFV.KUBERNETES.V_1', 'kubernetes'] as const;

export const LABELS = {
  /** Every object Bosun applies, and every pod of its workloads. */
  instance: 'bosun.io/vnf-instance-id',
  /** The op occ that last applied an object, or first saw a pod. */
  opOcc: 'bosun.io/op-occ-id',
  /** The VDU a workload's pods realise (on the workload and its pod template). */
  vdu: 'bosun.io/vdu-id',
  /** The VNFC (vnfcResourceInfo id) a pod is, set when an operation first maps it. */
  vnfc: 'bosun.io/vnfc-id',
} as const;

/** The pod annotation a ReplicaSet reads to choose which pods a scale-in removes first. */
export const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

export const instanceSelector = (instanceId: string) => `${LABELS.instance}=${instanceId}`;
export const vduSelector = (instanceId: string, vduId: string) =>
  `${LABELS.instance}=${instanceId},${LABELS.vdu}=${vduId}`;

/** The pod-template annotation a change of package sets: its pods are all replaced. */
export const CHANGED_BY = 'bosun.io/changed-by-op-occ';

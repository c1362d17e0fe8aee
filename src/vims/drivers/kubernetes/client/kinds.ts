/**
 * The Kubernetes kinds Bosun knows how to reach (the API path of each, whether it lives in a
 * namespace) and which of them a package may apply without the operator's say: namespaced
 * workloads, services, configuration and storage claims. Cluster-scoped kinds and kinds that
 * grant privileges (RBAC, namespaces, volumes, storage classes) apply only when the operator
 * lists them in kubernetes.allowKinds: a tenant's package must not reach beyond its namespace.
 */

export interface KindInfo {
  kind: string;
  /** `v1` for the core group, else `group/version`. */
  apiVersion: string;
  plural: string;
  namespaced: boolean;
  /** Applied without being listed in kubernetes.allowKinds. */
  safe: boolean;
  /** Runs pods Bosun maps to VDUs (its replicas are what scale changes). */
  workload?: 'replicas' | 'daemon' | 'pod';
}

const k = (
  kind: string,
  apiVersion: string,
  plural: string,
  namespaced: boolean,
  safe: boolean,
  workload?: KindInfo['workload'],
): KindInfo => ({ kind, apiVersion, plural, namespaced, safe, ...(workload ? { workload } : {}) });

export const KINDS: readonly KindInfo[] = [
  k('Pod', 'v1', 'pods', true, true, 'pod'),
  k('Deployment', 'apps/v1', 'deployments', true, true, 'replicas'),
  k('StatefulSet', 'apps/v1', 'statefulsets', true, true, 'replicas'),
  k('ReplicaSet', 'apps/v1', 'replicasets', true, true, 'replicas'),
  k('DaemonSet', 'apps/v1', 'daemonsets', true, true, 'daemon'),
  k('Job', 'batch/v1', 'jobs', true, true),
  k('CronJob', 'batch/v1', 'cronjobs', true, true),
  k('Service', 'v1', 'services', true, true),
  k('ConfigMap', 'v1', 'configmaps', true, true),
  k('Secret', 'v1', 'secrets', true, true),
  k('PersistentVolumeClaim', 'v1', 'persistentvolumeclaims', true, true),
  k('ServiceAccount', 'v1', 'serviceaccounts', true, true),
  k('HorizontalPodAutoscaler', 'autoscaling/v2', 'horizontalpodautoscalers', true, true),
  k('PodDisruptionBudget', 'policy/v1', 'poddisruptionbudgets', true, true),
  k('NetworkPolicy', 'networking.k8s.io/v1', 'networkpolicies', true, true),
  k('Ingress', 'networking.k8s.io/v1', 'ingresses', true, true),
  k('LimitRange', 'v1', 'limitranges', true, false),
  k('ResourceQuota', 'v1', 'resourcequotas', true, false),
  k('Role', 'rbac.authorization.k8s.io/v1', 'roles', true, false),
  k('RoleBinding', 'rbac.authorization.k8s.io/v1', 'rolebindings', true, false),
  k('Namespace', 'v1', 'namespaces', false, false),
  k('ClusterRole', 'rbac.authorization.k8s.io/v1', 'clusterroles', false, false),
  k('ClusterRoleBinding', 'rbac.authorization.k8s.io/v1', 'clusterrolebindings', false, false),
  k('PersistentVolume', 'v1', 'persistentvolumes', false, false),
  k('StorageClass', 'storage.k8s.io/v1', 'storageclasses', false, false),
  k('PriorityClass', 'scheduling.k8s.io/v1', 'priorityclasses', false, false),
];

const BY_KIND = new Map(KINDS.map((i) => [i.kind, i]));

export const kindInfo = (kind: string): KindInfo | undefined => BY_KIND.get(kind);

/** The API path of a kind's collection (in `namespace` when it is namespaced). */
export function collectionPath(info: KindInfo, namespace?: string): string {
  const base = info.apiVersion.includes('/') ? `/apis/${info.apiVersion}` : `/api/${info.apiVersion}`;
  const ns = info.namespaced && namespace ? `/namespaces/${encodeURIComponent(namespace)}` : '';
  return `${base}${ns}/${info.plural}`;
}

export const objectPath = (info: KindInfo, name: string, namespace?: string) =>
  `${collectionPath(info, namespace)}/${encodeURIComponent(name)}`;

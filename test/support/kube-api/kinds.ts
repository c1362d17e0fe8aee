/**
 * The resource kinds the test API server serves, as data: where each lives (group, version,
 * plural), whether it is namespaced, its subresources, and how its lists are merged (the list
 * keys server-side apply and strategic merge patch use). Discovery, OpenAPI, routing and the
 * field sets are all read from here, so a new kind is a new row.
 */

export interface Kind {
  kind: string;
  plural: string;
  singular: string;
  group: string;
  version: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  /** Subresources beyond the resource itself. */
  subresources: ('status' | 'scale')[];
  /** metadata.generation counts changes of spec (workloads): observedGeneration follows it. */
  generation: boolean;
}

const ALL = ['all'];

export const KINDS: Kind[] = [
  {
    kind: 'Namespace',
    plural: 'namespaces',
    singular: 'namespace',
    group: '',
    version: 'v1',
    namespaced: false,
    shortNames: ['ns'],
    subresources: ['status'],
    generation: false,
  },
  {
    kind: 'Node',
    plural: 'nodes',
    singular: 'node',
    group: '',
    version: 'v1',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
    generation: false,
  },
  {
    kind: 'Pod',
    plural: 'pods',
    singular: 'pod',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['po'],
    categories: ALL,
    subresources: ['status'],
    generation: false,
  },
  {
    kind: 'Service',
    plural: 'services',
    singular: 'service',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['svc'],
    categories: ALL,
    subresources: ['status'],
    generation: false,
  },
  {
    kind: 'ConfigMap',
    plural: 'configmaps',
    singular: 'configmap',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['cm'],
    subresources: [],
    generation: false,
  },
  {
    kind: 'Secret',
    plural: 'secrets',
    singular: 'secret',
    group: '',
    version: 'v1',
    namespaced: true,
    subresources: [],
    generation: false,
  },
  {
    kind: 'ServiceAccount',
    plural: 'serviceaccounts',
    singular: 'serviceaccount',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['sa'],
    subresources: [],
    generation: false,
  },
  {
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    singular: 'persistentvolumeclaim',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: ['status'],
    generation: false,
  },
  {
    kind: 'Event',
    plural: 'events',
    singular: 'event',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['ev'],
    subresources: [],
    generation: false,
  },
  {
    kind: 'Deployment',
    plural: 'deployments',
    singular: 'deployment',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ALL,
    subresources: ['status', 'scale'],
    generation: true,
  },
  {
    kind: 'ReplicaSet',
    plural: 'replicasets',
    singular: 'replicaset',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['rs'],
    categories: ALL,
    subresources: ['status', 'scale'],
    generation: true,
  },
  {
    kind: 'StatefulSet',
    plural: 'statefulsets',
    singular: 'statefulset',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['sts'],
    categories: ALL,
    subresources: ['status', 'scale'],
    generation: true,
  },
  {
    kind: 'DaemonSet',
    plural: 'daemonsets',
    singular: 'daemonset',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['ds'],
    categories: ALL,
    subresources: ['status'],
    generation: true,
  },
  {
    kind: 'Job',
    plural: 'jobs',
    singular: 'job',
    group: 'batch',
    version: 'v1',
    namespaced: true,
    categories: ALL,
    subresources: ['status'],
    generation: true,
  },
  {
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    group: 'policy',
    version: 'v1',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
    generation: true,
  },
];

/** "v1" or "apps/v1". */
export const apiVersionOf = (k: Kind): string => (k.group ? `${k.group}/${k.version}` : k.version);

/** "pods" or "deployments.apps": how the real server names a resource in its messages. */
export const qualifiedResource = (k: Kind): string => (k.group ? `${k.plural}.${k.group}` : k.plural);

/** "Pod" or "Deployment.apps": how the real server names a kind in "is invalid" messages. */
export const qualifiedKind = (k: Kind): string => (k.group ? `${k.kind}.${k.group}` : k.kind);

export function kindByPlural(group: string, version: string, plural: string): Kind | undefined {
  return KINDS.find((k) => k.group === group && k.version === version && k.plural === plural);
}

export function kindByName(apiVersion: string, kind: string): Kind | undefined {
  return KINDS.find((k) => apiVersionOf(k) === apiVersion && k.kind === kind);
}

export function mustKind(kind: string): Kind {
  const found = KINDS.find((k) => k.kind === kind);
  if (!found) throw new Error(`no kind ${kind}`);
  return found;
}

/**
 * How a list is merged, by field name (and, for `ports`, by what holds it): the keys of an
 * associative list, `set` for a list of scalars merged as a set, else the list is atomic (an
 * applier owns it whole). Maps named in ATOMIC_MAPS are owned whole too, as the real schemas say
 * of label selectors and node selectors.
 */
export type ListType = { keys: string[] } | 'set' | 'atomic';

const LIST_TYPES: Record<string, ListType> = {
  containers: { keys: ['name'] },
  initContainers: { keys: ['name'] },
  ephemeralContainers: { keys: ['name'] },
  env: { keys: ['name'] },
  volumes: { keys: ['name'] },
  volumeMounts: { keys: ['mountPath'] },
  volumeDevices: { keys: ['devicePath'] },
  imagePullSecrets: { keys: ['name'] },
  ownerReferences: { keys: ['uid'] },
  conditions: { keys: ['type'] },
  hostAliases: { keys: ['ip'] },
  topologySpreadConstraints: { keys: ['topologyKey', 'whenUnsatisfiable'] },
  containerStatuses: { keys: ['name'] },
  initContainerStatuses: { keys: ['name'] },
  finalizers: 'set',
};

/** `path` is the field names from the object's root to the list (the list's own name last). */
export function listType(path: string[]): ListType {
  const name = path[path.length - 1];
  if (name === 'ports') {
    // A container's ports are keyed by port and protocol, a Service's by port and protocol too
    // but with a different field name.
    const parent = path[path.length - 2];
    return parent === 'spec' ? { keys: ['port', 'protocol'] } : { keys: ['containerPort', 'protocol'] };
  }
  return LIST_TYPES[name] ?? 'atomic';
}

const ATOMIC_MAPS = new Set(['selector', 'nodeSelector']);

export const isAtomicMap = (path: string[]): boolean => ATOMIC_MAPS.has(path[path.length - 1]);

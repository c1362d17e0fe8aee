/**
 * Applies objects with server-side apply, in the order a cluster needs them: namespaces first,
 * then what pods read (accounts, config, secrets, claims, services), then the workloads.
 */
import type { KubeClient } from './client/client.ts';
import type { ManifestObject } from './manifests/objects.ts';

const FIRST = [
  'Namespace',
  'ResourceQuota',
  'LimitRange',
  'ServiceAccount',
  'ClusterRole',
  'ClusterRoleBinding',
  'Role',
  'RoleBinding',
  'StorageClass',
  'PriorityClass',
  'PersistentVolume',
  'ConfigMap',
  'Secret',
  'PersistentVolumeClaim',
  'Service',
];

const rank = (o: ManifestObject) => {
  const i = FIRST.indexOf(o.info.kind);
  return i === -1 ? FIRST.length : i;
};

export function applyOrder<T extends ManifestObject>(objects: readonly T[]): T[] {
  return [...objects].sort((a, b) => rank(a) - rank(b));
}

export async function applyAll(
  client: KubeClient,
  namespace: string,
  objects: readonly { object: ManifestObject; body: Record<string, unknown> }[],
  signal: AbortSignal,
): Promise<void> {
  const byObject = new Map(objects.map((o) => [o.object, o.body]));
  for (const object of applyOrder(objects.map((o) => o.object))) {
    const body = byObject.get(object) as Record<string, unknown> & { metadata: { name: string } };
    await client.apply(object.info, body, object.info.namespaced ? namespace : undefined, signal);
  }
}

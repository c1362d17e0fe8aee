/**
 * Applies objects with server-side apply, in the order a cluster needs them: namespaces first,
 * then what pods read (accounts, config, secrets, claims, services), then the workloads.
 */
import type { KubeClient } from './client/client.ts';
import type { ManifestObject } from './manifests/objects.ts';
import { refuseForeignObject } from './ownership.ts';

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

/** Applies `objects` for `instanceId`; none is applied when one of them is another's (ownership.ts). */
export async function applyAll(
  client: KubeClient,
  namespace: string,
  instanceId: string,
  objects: readonly { object: ManifestObject; body: Record<string, unknown> }[],
  signal: AbortSignal,
): Promise<void> {
  const byObject = new Map(objects.map((o) => [o.object, o.body]));
  const ordered = applyOrder(objects.map((o) => o.object));
  const where = (object: ManifestObject) => (object.info.namespaced ? namespace : undefined);
  for (const object of ordered) await refuseForeignObject(client, object, where(object), instanceId, signal);
  for (const object of ordered) {
    const body = byObject.get(object) as Record<string, unknown> & { metadata: { name: string } };
    await client.apply(object.info, body, where(object), signal);
  }
}

/**
 * The scale subresource (autoscaling/v1 Scale) of Deployments, ReplicaSets and StatefulSets:
 * read as the workload's replicas and selector, written by patching or replacing the Scale,
 * whose spec.replicas becomes the workload's.
 */
import type { Cluster, PatchType, WriteOptions } from './cluster.ts';
import type { Kind } from './kinds.ts';
import { jsonMergePatch, jsonPatch, strategicMergePatch } from './patch.ts';
import { selectorText } from './selectors.ts';
import { badRequest, conflict, invalid, MODIFIED } from './status.ts';
import type { Obj } from './store.ts';

export function scaleOf(obj: Obj): Obj {
  const m = obj.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      uid: m.uid,
      resourceVersion: m.resourceVersion,
      creationTimestamp: m.creationTimestamp,
    },
    spec: { replicas: obj.spec?.replicas ?? 0 },
    status: { replicas: obj.status?.replicas ?? 0, selector: selectorText(obj.spec?.selector) },
  };
}

export function writeScale(
  cluster: Cluster,
  kind: Kind,
  namespace: string | undefined,
  name: string,
  change: { type: PatchType | 'put'; body: unknown },
  o: WriteOptions,
): Obj {
  const obj = cluster.get(kind, namespace, name);
  const current = scaleOf(obj);
  let next: Obj;
  if (change.type === 'put') next = change.body as Obj;
  else if (change.type === 'json') next = jsonPatch(current, change.body);
  else if (change.type === 'merge') next = jsonMergePatch(current, change.body) as Obj;
  else if (change.type === 'strategic') next = strategicMergePatch(current, change.body as Obj);
  else throw badRequest('apply to the scale subresource is not supported by this test server');
  const rv = next?.metadata?.resourceVersion;
  if (rv && change.type === 'put' && rv !== obj.metadata.resourceVersion)
    throw conflict(kind, name, MODIFIED);
  const replicas = next?.spec?.replicas;
  if (typeof replicas !== 'number' || replicas < 0 || !Number.isInteger(replicas)) {
    throw invalid({ ...kind, kind: 'Scale', group: 'autoscaling' }, name, [
      {
        field: 'spec.replicas',
        message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
      },
    ]);
  }
  const updated = cluster.update(
    kind,
    namespace,
    name,
    { ...obj, spec: { ...obj.spec, replicas } },
    { ...o, subresource: 'scale' },
  );
  return scaleOf(updated);
}

/**
 * DELETE as the real server does it: preconditions, graceful deletion of pods (deletionTimestamp
 * and a grace period; the kubelet removes them once their containers stop), and the propagation
 * policies: Background (gone now, the garbage collector removes dependents), Foreground (kept
 * with the foregroundDeletion finalizer until the dependents are gone) and Orphan (dependents
 * lose their owner reference). A namespace goes Terminating until it is empty.
 */
import type { Cluster } from './cluster.ts';
import type { Kind } from './kinds.ts';
import { badRequest, conflict, deleted } from './status.ts';
import { now, type Obj } from './store.ts';

export interface DeleteOptions {
  propagationPolicy?: string;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
}

const FINALIZER: Record<string, string> = { Foreground: 'foregroundDeletion', Orphan: 'orphan' };

/** The answer to a DELETE: the object (still there, or a pod) or the real server's success Status. */
export function deleteObject(
  cluster: Cluster,
  kind: Kind,
  namespace: string | undefined,
  name: string,
  o: DeleteOptions,
): Obj {
  const obj = cluster.get(kind, namespace, name);
  const pre = o.preconditions ?? {};
  if (pre.uid && pre.uid !== obj.metadata.uid) {
    throw conflict(
      kind,
      name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid}`,
    );
  }
  if (pre.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion) {
    throw conflict(
      kind,
      name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion}`,
    );
  }
  const policy = o.propagationPolicy ?? 'Background';
  if (!['Background', 'Foreground', 'Orphan'].includes(policy)) {
    throw badRequest(
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`,
    );
  }
  const meta = obj.metadata;
  const finalizers: string[] = [...(meta.finalizers ?? [])];
  const extra = FINALIZER[policy];
  if (extra && !finalizers.includes(extra)) finalizers.push(extra);
  const at = now();
  const store = cluster.writer(o);

  if (kind.kind === 'Pod') {
    const grace = o.gracePeriodSeconds ?? obj.spec?.terminationGracePeriodSeconds ?? 30;
    // A pod never scheduled, or a forced deletion, has no containers to stop.
    if ((grace === 0 || !obj.spec?.nodeName) && !finalizers.length) {
      return store.remove(kind, namespace, name)!;
    }
    if (meta.deletionTimestamp && (meta.deletionGracePeriodSeconds ?? 0) <= grace) return obj;
    const next = {
      ...obj,
      metadata: {
        ...meta,
        finalizers: finalizers.length ? finalizers : undefined,
        deletionTimestamp: new Date(Date.now() + grace * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        deletionGracePeriodSeconds: grace,
      },
    };
    if (!next.metadata.finalizers) delete next.metadata.finalizers;
    return store.update(kind, next);
  }
  if (kind.kind === 'Namespace') {
    if (meta.deletionTimestamp) return obj;
    return store.update(kind, {
      ...obj,
      metadata: { ...meta, deletionTimestamp: at },
      status: { phase: 'Terminating' },
    });
  }
  if (!finalizers.length) {
    store.remove(kind, namespace, name);
    return deleted(kind, name, meta.uid);
  }
  if (meta.deletionTimestamp && JSON.stringify(meta.finalizers) === JSON.stringify(finalizers)) return obj;
  return store.update(kind, {
    ...obj,
    metadata: {
      ...meta,
      finalizers,
      deletionTimestamp: meta.deletionTimestamp ?? at,
      deletionGracePeriodSeconds: 0,
    },
  });
}

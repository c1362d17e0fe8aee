/**
 * The garbage collector and the namespace controller: dependents whose owners are gone are
 * deleted (Background), a Foreground deletion waits for its dependents (deleted foreground too)
 * before the owner goes, an Orphan deletion strips the owner reference from its dependents, and a
 * Terminating namespace is emptied and then removed.
 */
import type { Cluster } from '../cluster.ts';
import { deleteObject } from '../deletion.ts';
import { KINDS, type Kind, mustKind } from '../kinds.ts';
import type { Obj } from '../store.ts';
import { type Controller, type Ctx, kindOfRef, MANAGER } from './context.ts';

const NAMESPACE = mustKind('Namespace');

function dependents(cluster: Cluster, owner: Obj): { kind: Kind; obj: Obj }[] {
  const out: { kind: Kind; obj: Obj }[] = [];
  for (const kind of KINDS.filter((k) => k.namespaced)) {
    const mine = (o: Obj) =>
      (o.metadata.ownerReferences ?? []).some((r: Obj) => r.uid === owner.metadata.uid);
    for (const obj of cluster.store.list(kind, owner.metadata.namespace, mine)) {
      if ((obj.metadata.ownerReferences ?? []).some((r: Obj) => r.uid === owner.metadata.uid))
        out.push({ kind, obj });
    }
  }
  return out;
}

export class GarbageCollector implements Controller {
  sync(ctx: Ctx): void {
    const { cluster } = ctx;
    for (const kind of KINDS) {
      const relevant = (o: Obj) => !!o.metadata.ownerReferences?.length || !!o.metadata.deletionTimestamp;
      for (const obj of cluster.store.list(kind, undefined, relevant)) {
        const refs: Obj[] = obj.metadata.ownerReferences ?? [];
        if (refs.length && !obj.metadata.deletionTimestamp) {
          const alive = refs.filter((r) => {
            const k = kindOfRef(r);
            return k && cluster.find(k, obj.metadata.namespace, r.name)?.metadata.uid === r.uid;
          });
          if (!alive.length) deleteObject(cluster, kind, obj.metadata.namespace, obj.metadata.name, {});
        }
        const finalizers: string[] = obj.metadata.finalizers ?? [];
        if (!obj.metadata.deletionTimestamp) continue;
        if (finalizers.includes('foregroundDeletion')) this.foreground(cluster, kind, obj);
        else if (finalizers.includes('orphan')) this.orphan(cluster, kind, obj);
      }
    }
    for (const ns of cluster.store.list(NAMESPACE))
      if (ns.metadata.deletionTimestamp) this.emptyNamespace(cluster, ns);
  }

  private foreground(cluster: Cluster, kind: Kind, owner: Obj): void {
    const deps = dependents(cluster, owner);
    for (const { kind: k, obj } of deps) {
      if (!obj.metadata.deletionTimestamp)
        deleteObject(cluster, k, obj.metadata.namespace, obj.metadata.name, {
          propagationPolicy: 'Foreground',
        });
    }
    if (!deps.length) this.dropFinalizer(cluster, kind, owner, 'foregroundDeletion');
  }

  private orphan(cluster: Cluster, kind: Kind, owner: Obj): void {
    for (const { kind: k, obj } of dependents(cluster, owner)) {
      const refs = obj.metadata.ownerReferences.filter((r: Obj) => r.uid !== owner.metadata.uid);
      cluster.writeObject(
        k,
        { ...obj, metadata: { ...obj.metadata, ownerReferences: refs.length ? refs : undefined } },
        MANAGER,
      );
    }
    this.dropFinalizer(cluster, kind, owner, 'orphan');
  }

  private dropFinalizer(cluster: Cluster, kind: Kind, obj: Obj, finalizer: string): void {
    const rest = (obj.metadata.finalizers as string[]).filter((f) => f !== finalizer);
    cluster.writeObject(
      kind,
      { ...obj, metadata: { ...obj.metadata, finalizers: rest.length ? rest : undefined } },
      MANAGER,
    );
  }

  private emptyNamespace(cluster: Cluster, ns: Obj): void {
    let left = 0;
    for (const kind of KINDS.filter((k) => k.namespaced)) {
      for (const obj of cluster.store.list(kind, ns.metadata.name)) {
        left++;
        if (!obj.metadata.deletionTimestamp)
          deleteObject(cluster, kind, obj.metadata.namespace, obj.metadata.name, {});
      }
    }
    if (!left) cluster.store.remove(NAMESPACE, undefined, ns.metadata.name);
  }
}

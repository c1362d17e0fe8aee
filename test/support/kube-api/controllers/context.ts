/**
 * What every controller of the test cluster gets: the cluster (whose API it writes through, as
 * the real controllers do), the timings of the simulated nodes, and `later` to be run again at a
 * time (a pod that becomes ready, a deadline that passes).
 */
import type { Cluster } from '../cluster.ts';
import { type Kind, kindByName, mustKind } from '../kinds.ts';
import type { Obj } from '../store.ts';

export interface Timing {
  /** From a pod's scheduling to its containers running and ready. */
  podStartMs: number;
  /** From a pod's deletion to its removal (at most its grace period). */
  podStopMs: number;
  /** From ErrImagePull to ImagePullBackOff. */
  imagePullBackOffMs: number;
}

export interface Ctx {
  cluster: Cluster;
  timing: Timing;
  /** Runs the controllers again in `ms`. */
  later(ms: number): void;
  /** Node names of the cluster. */
  nodes(): string[];
}

export interface Controller {
  sync(ctx: Ctx): void;
}

export const MANAGER = 'kube-controller-manager';

export const POD = mustKind('Pod');
export const REPLICA_SET = mustKind('ReplicaSet');
export const DEPLOYMENT = mustKind('Deployment');
export const STATEFUL_SET = mustKind('StatefulSet');
export const DAEMON_SET = mustKind('DaemonSet');
export const PVC = mustKind('PersistentVolumeClaim');
export const NODE = mustKind('Node');

export const controllerRef = (o: Obj) => (o.metadata.ownerReferences ?? []).find((r: Obj) => r.controller);

/** The objects of `kind` in `owner`'s namespace that `owner` controls. */
export const owned = (cluster: Cluster, kind: Kind, owner: Obj): Obj[] =>
  cluster.store.list(kind, owner.metadata.namespace, (o) => controllerRef(o)?.uid === owner.metadata.uid);

export const ownerReference = (owner: Obj) => ({
  apiVersion: owner.apiVersion,
  kind: owner.kind,
  name: owner.metadata.name,
  uid: owner.metadata.uid,
  controller: true,
  blockOwnerDeletion: true,
});

export const isReady = (pod: Obj) =>
  !pod.metadata.deletionTimestamp &&
  (pod.status?.conditions ?? []).some((c: Obj) => c.type === 'Ready' && c.status === 'True');

export const isActive = (pod: Obj) =>
  !pod.metadata.deletionTimestamp && pod.status?.phase !== 'Failed' && pod.status?.phase !== 'Succeeded';

export const kindOfRef = (ref: Obj) => kindByName(ref.apiVersion, ref.kind);

/** JSON with sorted keys and without nulls, so that equal objects compare equal whatever their key order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as Obj)
      .sort()
      .filter((k) => (v as Obj)[k] !== undefined && (v as Obj)[k] !== null)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Obj)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The real controllers' template hash: FNV-32a of the template, its decimal digits made name-safe. */
export function templateHash(template: unknown, collisionCount = 0): string {
  let h = 0x811c9dc5;
  for (const ch of Buffer.from(canonical(template) + (collisionCount ? String(collisionCount) : ''))) {
    h ^= ch;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  return [...String(h)].map((c) => alphabet[c.charCodeAt(0) % alphabet.length]).join('');
}

/** Status written only when it differs, so that an idle cluster writes nothing. */
export function setStatus(ctx: Ctx, kind: Kind, obj: Obj, status: Obj): void {
  if (canonical(obj.status ?? {}) === canonical(status)) return;
  ctx.cluster.writeStatus(kind, { ...obj, status });
}

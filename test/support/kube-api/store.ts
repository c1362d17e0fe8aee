/**
 * The objects of the test API server, in memory, with the bookkeeping every real API server
 * does: one global, monotonic resourceVersion (a write bumps it), uid and creationTimestamp on
 * create, generateName (five random characters from the same alphabet as the real server), and a
 * bounded history of changes from which watches resume (older resourceVersions are "too old").
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Kind } from './kinds.ts';

/** A Kubernetes object as JSON: read by path everywhere, as a real server's unstructured objects are. */
// biome-ignore lint/suspicious/noExplicitAny: JSON objects of every kind, read by path
export type Obj = Record<string, any>;

export interface Meta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  creationTimestamp: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: {
    apiVersion: string;
    kind: string;
    name: string;
    uid: string;
    controller?: boolean;
    blockOwnerDeletion?: boolean;
  }[];
  finalizers?: string[];
  generateName?: string;
  managedFields?: Obj[];
}

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface Change {
  rv: number;
  type: EventType;
  kind: Kind;
  object: Obj;
  /** The object before a MODIFIED change (a watch with a selector turns leaving it into DELETED). */
  previous?: Obj;
}

/** The alphabet the real server's name generator draws from (no vowels, no look-alikes). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export const randomSuffix = (n = 5): string =>
  Array.from({ length: n }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

export const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

const keyOf = (kind: Kind, namespace: string | undefined, name: string) =>
  `${kind.group}/${kind.plural}/${namespace ?? ''}/${name}`;

/** What writes an object: the store itself, or its dry run. */
export interface Writer {
  create(kind: Kind, obj: Obj): Obj;
  update(kind: Kind, obj: Obj): Obj;
  remove(kind: Kind, namespace: string | undefined, name: string): Obj | undefined;
}

export class Store implements Writer {
  private objects = new Map<string, Obj>();
  private rv = 1000;
  private history: Change[] = [];
  /** The oldest resourceVersion a watch may resume from. */
  private oldest = 1000;
  private listeners = new Set<(c: Change) => void>();

  private readonly historyLimit: number;

  constructor(historyLimit = 5000) {
    this.historyLimit = historyLimit;
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  get oldestResourceVersion(): number {
    return this.oldest;
  }

  get(kind: Kind, namespace: string | undefined, name: string): Obj | undefined {
    const o = this.objects.get(keyOf(kind, kind.namespaced ? namespace : undefined, name));
    return o && structuredClone(o);
  }

  /** Copies of the objects of a kind (in a namespace), sorted by name; `only` picks before copying (it must not change them). */
  list(kind: Kind, namespace?: string, only?: (o: Obj) => boolean): Obj[] {
    const prefix = `${kind.group}/${kind.plural}/${kind.namespaced && namespace ? `${namespace}/` : ''}`;
    const out: Obj[] = [];
    for (const [k, o] of this.objects)
      if (k.startsWith(prefix) && (!only || only(o))) out.push(structuredClone(o));
    return out.sort((a, b) =>
      `${a.metadata.namespace ?? ''}/${a.metadata.name}`.localeCompare(
        `${b.metadata.namespace ?? ''}/${b.metadata.name}`,
      ),
    );
  }

  count(kind: Kind, namespace?: string): number {
    const prefix = `${kind.group}/${kind.plural}/${kind.namespaced && namespace ? `${namespace}/` : ''}`;
    let n = 0;
    for (const k of this.objects.keys()) if (k.startsWith(prefix)) n++;
    return n;
  }

  /** A free name for `generateName` (the real server retries on a clash too). */
  generateName(kind: Kind, namespace: string | undefined, prefix: string): string {
    for (;;) {
      const name = prefix + randomSuffix();
      if (!this.objects.has(keyOf(kind, namespace, name))) return name;
    }
  }

  exists(kind: Kind, namespace: string | undefined, name: string): boolean {
    return this.objects.has(keyOf(kind, kind.namespaced ? namespace : undefined, name));
  }

  /** Stores a new object: uid, creationTimestamp, resourceVersion and generation are set here. */
  create(kind: Kind, obj: Obj): Obj {
    const m = obj.metadata;
    m.uid = randomUUID();
    m.creationTimestamp = now();
    if (kind.generation) m.generation = 1;
    return this.write(kind, obj, 'ADDED');
  }

  /** Replaces a stored object (the caller checked preconditions); bumps generation on a spec change. */
  update(kind: Kind, obj: Obj): Obj {
    const old = this.objects.get(keyOf(kind, obj.metadata.namespace, obj.metadata.name));
    if (!old) throw new Error(`update of a missing ${kind.kind} ${obj.metadata.name}`);
    if (kind.generation && JSON.stringify(old.spec) !== JSON.stringify(obj.spec)) {
      obj.metadata.generation = (old.metadata.generation ?? 1) + 1;
    } else if (kind.generation) obj.metadata.generation = old.metadata.generation;
    if (
      JSON.stringify({ ...old, metadata: { ...old.metadata, resourceVersion: 0, managedFields: 0 } }) ===
      JSON.stringify({ ...obj, metadata: { ...obj.metadata, resourceVersion: 0, managedFields: 0 } })
    ) {
      // No change: the real server does not bump the resourceVersion of a no-op write.
      return structuredClone(old);
    }
    return this.write(kind, obj, 'MODIFIED', old);
  }

  remove(kind: Kind, namespace: string | undefined, name: string): Obj | undefined {
    const key = keyOf(kind, kind.namespaced ? namespace : undefined, name);
    const stored = this.objects.get(key);
    if (!stored) return undefined;
    this.objects.delete(key);
    const old = structuredClone(stored);
    this.rv++;
    old.metadata.resourceVersion = String(this.rv);
    this.record({ rv: this.rv, type: 'DELETED', kind, object: old });
    return structuredClone(old);
  }

  /**
   * The same writes, answered as they would be but stored nowhere (`?dryRun=All`): a new object
   * gets its uid and timestamps, an updated one its generation, and no resourceVersion moves.
   */
  dry(): Writer {
    return {
      create: (kind, obj) => {
        const o = structuredClone(obj);
        o.metadata.uid = randomUUID();
        o.metadata.creationTimestamp = now();
        if (kind.generation) o.metadata.generation = 1;
        return o;
      },
      update: (kind, obj) => {
        const old = this.get(kind, obj.metadata.namespace, obj.metadata.name);
        const o = structuredClone(obj);
        if (kind.generation && old) {
          const changed = JSON.stringify(old.spec) !== JSON.stringify(o.spec);
          o.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
        }
        o.metadata.resourceVersion = old?.metadata.resourceVersion;
        return o;
      },
      remove: (kind, namespace, name) => this.get(kind, namespace, name),
    };
  }

  /** The changes after `rv`, or undefined when they are no longer kept (a 410 for the watcher). */
  changesSince(rv: number): Change[] | undefined {
    if (rv < this.oldest) return undefined;
    return this.history.filter((c) => c.rv > rv);
  }

  /** Forgets the history (as etcd compaction does): a watch from an older resourceVersion gets 410. */
  compact(): void {
    this.history = [];
    this.oldest = this.rv;
  }

  onChange(listener: (c: Change) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private write(kind: Kind, obj: Obj, type: EventType, previous?: Obj): Obj {
    this.rv++;
    obj.metadata.resourceVersion = String(this.rv);
    // Keys in the real server's order: kind, apiVersion, metadata, then the rest.
    const { kind: k, apiVersion, metadata, ...rest } = structuredClone(obj);
    const stored = { kind: k, apiVersion, metadata, ...rest };
    this.objects.set(
      keyOf(kind, kind.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name),
      stored,
    );
    this.record({ rv: this.rv, type, kind, object: stored, previous });
    return structuredClone(stored);
  }

  private record(change: Change): void {
    this.history.push(change);
    if (this.history.length > this.historyLimit) {
      const dropped = this.history.splice(0, this.history.length - this.historyLimit);
      this.oldest = dropped[dropped.length - 1].rv;
    }
    for (const l of this.listeners) l(change);
  }
}

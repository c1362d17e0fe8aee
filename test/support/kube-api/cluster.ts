/**
 * The API of the test cluster, the one path every write takes — from HTTP clients and from the
 * controllers alike: namespace checks, admission (injected quotas), defaults, validation, the
 * status subresource's split, resourceVersion preconditions, managed fields, and a nudge to the
 * controllers after each change.
 */
import { recordUpdate, serverSideApply } from './apply.ts';
import { Failures } from './failures.ts';
import { apiVersionOf, type Kind, mustKind } from './kinds.ts';
import { jsonMergePatch, jsonPatch, strategicMergePatch } from './patch.ts';
import { type Allocator, BEHAVIOURS } from './resources/index.ts';
import { subdomainName } from './resources/validation.ts';
import {
  alreadyExists,
  badRequest,
  conflict,
  forbidden,
  invalid,
  MODIFIED,
  namespaceNotFound,
  notFound,
  StatusError,
  unsupportedMediaType,
} from './status.ts';
import { now, type Obj, Store, type Writer } from './store.ts';

export interface WriteOptions {
  /** The field manager (?fieldManager=, else the client's user agent, as the real server does). */
  manager: string;
  subresource?: 'status' | 'scale';
  /** `?dryRun=All`: everything is checked and answered, nothing is stored. */
  dryRun?: boolean;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_TYPES: Record<string, PatchType> = {
  'application/json-patch+json': 'json',
  'application/merge-patch+json': 'merge',
  'application/strategic-merge-patch+json': 'strategic',
  'application/apply-patch+yaml': 'apply',
  'application/apply-patch+cbor': 'apply',
};

const NAMESPACE = mustKind('Namespace');

export class Cluster {
  readonly store = new Store();
  readonly failures = new Failures();
  private ips = 10;
  private ports = 30000;
  readonly alloc: Allocator = {
    clusterIp: () => {
      this.ips++;
      return `10.96.${Math.floor(this.ips / 250)}.${this.ips % 250}`;
    },
    nodePort: () => this.ports++,
  };

  get(kind: Kind, namespace: string | undefined, name: string): Obj {
    const o = this.store.get(kind, namespace, name);
    if (!o) throw notFound(kind, name);
    return o;
  }

  find(kind: Kind, namespace: string | undefined, name: string): Obj | undefined {
    return this.store.get(kind, namespace, name);
  }

  private checkNamespace(kind: Kind, namespace: string | undefined, name: string): void {
    if (!kind.namespaced) return;
    const ns = this.store.get(NAMESPACE, undefined, namespace ?? '');
    if (!ns) throw namespaceNotFound(namespace ?? '');
    if (ns.metadata.deletionTimestamp) {
      throw forbidden(
        kind,
        name,
        `unable to create new content in namespace ${namespace} because it is being terminated`,
      );
    }
  }

  private prepare(kind: Kind, obj: Obj, old: Obj | undefined): void {
    // Empty label and annotation maps are no maps at all on the real server (its types omit them).
    for (const k of ['labels', 'annotations']) {
      if (obj.metadata[k] && !Object.keys(obj.metadata[k]).length) delete obj.metadata[k];
    }
    const b = BEHAVIOURS[kind.kind];
    if (old) b?.carry?.(obj, old);
    b?.defaults?.(obj, this.alloc);
    const causes = [...(old ? [] : subdomainName(obj.metadata.name)), ...(b?.validate?.(obj, old) ?? [])];
    if (causes.length) throw invalid(kind, obj.metadata.name, causes);
  }

  /** POST: a new object (generateName honoured), or 409 AlreadyExists. */
  create(kind: Kind, namespace: string | undefined, body: Obj, o: WriteOptions, applied?: Obj): Obj {
    const obj = structuredClone(body);
    obj.apiVersion = apiVersionOf(kind);
    obj.kind = kind.kind;
    obj.metadata ??= {};
    if (kind.namespaced) obj.metadata.namespace = namespace;
    else delete obj.metadata.namespace;
    if (!obj.metadata.name && obj.metadata.generateName) {
      obj.metadata.name = this.store.generateName(kind, namespace, obj.metadata.generateName);
    }
    if (!obj.metadata.name) {
      throw invalid(kind, '', [
        {
          field: 'metadata.name',
          reason: 'FieldValueRequired',
          message: 'Required value: name or generateName is required',
        },
      ]);
    }
    this.checkNamespace(kind, namespace, obj.metadata.name);
    if (this.store.exists(kind, namespace, obj.metadata.name)) throw alreadyExists(kind, obj.metadata.name);
    for (const k of [
      'uid',
      'resourceVersion',
      'generation',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
    ]) {
      delete obj.metadata[k];
    }
    if (kind.subresources.includes('status') || BEHAVIOURS[kind.kind]?.initialStatus) {
      const initial = BEHAVIOURS[kind.kind]?.initialStatus?.(obj);
      if (initial) obj.status = initial;
      else if (kind.subresources.includes('status')) delete obj.status;
    }
    this.prepare(kind, obj, undefined);
    this.failures.admit(kind, obj, this.store.count(kind, namespace));
    if (!applied) recordUpdate(undefined, obj, { manager: o.manager, apiVersion: obj.apiVersion });
    else obj.metadata.managedFields = applied.metadata.managedFields;
    return this.writer(o).create(kind, obj);
  }

  /** PUT (and the end of every patch): preconditions, the status split, defaults, validation. */
  update(
    kind: Kind,
    namespace: string | undefined,
    name: string,
    body: Obj,
    o: WriteOptions,
    track = true,
  ): Obj {
    const old = this.get(kind, namespace, name);
    if (body.metadata?.name && body.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${body.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    const rv = body.metadata?.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(kind, name, MODIFIED);
    let next: Obj = structuredClone(body);
    if (o.subresource === 'status') next = { ...old, status: next.status };
    else if (kind.subresources.includes('status')) next.status = old.status;
    next.apiVersion = old.apiVersion;
    next.kind = old.kind;
    next.metadata = {
      ...next.metadata,
      name,
      namespace: old.metadata.namespace,
      uid: old.metadata.uid,
      creationTimestamp: old.metadata.creationTimestamp,
      deletionTimestamp: old.metadata.deletionTimestamp,
      deletionGracePeriodSeconds: old.metadata.deletionGracePeriodSeconds,
    };
    if (!kind.namespaced) delete next.metadata.namespace;
    for (const k of ['deletionTimestamp', 'deletionGracePeriodSeconds'])
      if (next.metadata[k] === undefined) delete next.metadata[k];
    if (
      old.metadata.deletionTimestamp &&
      (next.metadata.finalizers ?? []).some((f: string) => !(old.metadata.finalizers ?? []).includes(f))
    ) {
      throw forbidden(kind, name, 'no new finalizers can be added if the object is being deleted');
    }
    this.prepare(kind, next, old);
    // An apply brings its managed fields already worked out; any other write records its changes.
    if (track)
      recordUpdate(old, next, {
        manager: o.manager,
        apiVersion: apiVersionOf(kind),
        subresource: o.subresource,
      });
    if (next.metadata.deletionTimestamp && !(next.metadata.finalizers ?? []).length && kind.kind !== 'Pod') {
      return this.writer(o).remove(kind, namespace, name)!;
    }
    return this.writer(o).update(kind, next);
  }

  writer(o: { dryRun?: boolean }): Writer {
    return o.dryRun ? this.store.dry() : this.store;
  }

  /** PATCH of any type; an apply creates what does not exist. */
  patch(
    kind: Kind,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    body: unknown,
    o: WriteOptions & { force?: boolean },
  ): Obj {
    if (type === 'apply') return this.apply(kind, namespace, name, body, o);
    const old = this.get(kind, namespace, name);
    let patched: Obj;
    if (type === 'json') patched = jsonPatch(old, body);
    else if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}');
    } else if (type === 'merge') patched = jsonMergePatch(old, body) as Obj;
    else patched = strategicMergePatch(old, body as Obj);
    // A patch carries a resourceVersion only as a precondition.
    const precondition = (body as Obj)?.metadata?.resourceVersion;
    patched.metadata = { ...patched.metadata, resourceVersion: precondition ?? old.metadata.resourceVersion };
    return this.update(kind, namespace, name, patched, o);
  }

  private apply(
    kind: Kind,
    namespace: string | undefined,
    name: string,
    body: unknown,
    o: WriteOptions & { force?: boolean },
  ): Obj {
    if (!o.manager) {
      throw invalid({ ...kind, kind: 'PatchOptions', group: 'meta.k8s.io' }, '', [
        {
          field: 'fieldManager',
          reason: 'FieldValueRequired',
          message: 'Required value: is required for apply patch',
        },
      ]);
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw badRequest('error decoding YAML: the apply configuration must be an object');
    const config = body as Obj;
    if (config.apiVersion !== apiVersionOf(kind) || config.kind !== kind.kind) {
      throw badRequest(
        `the API version in the data (${config.apiVersion}) does not match the expected API version (${apiVersionOf(kind)})`,
      );
    }
    if (config.metadata?.name && config.metadata.name !== name) {
      throw badRequest(
        `the name of the object (${config.metadata.name}) does not match the name on the URL (${name})`,
      );
    }
    const options = {
      manager: o.manager,
      force: !!o.force,
      subresource: o.subresource,
      skipStatus: kind.subresources.includes('status') && o.subresource !== 'status',
    };
    const live = this.find(kind, namespace, name);
    if (!live) {
      const created = serverSideApply(
        undefined,
        { ...config, metadata: { ...config.metadata, name } },
        options,
      );
      return this.create(kind, namespace, created, o, created);
    }
    const merged = serverSideApply(live, config, options);
    merged.metadata.resourceVersion = config.metadata?.resourceVersion ?? live.metadata.resourceVersion;
    return this.update(kind, namespace, name, merged, o, false);
  }

  /** Writes the controllers make: status through the status subresource, anything else through update. */
  writeStatus(kind: Kind, obj: Obj, manager = 'kube-controller-manager'): Obj | undefined {
    try {
      return this.update(kind, obj.metadata.namespace, obj.metadata.name, obj, {
        manager,
        subresource: 'status',
      });
    } catch (e) {
      // The object changed or went away since the controller read it: its next pass looks again.
      if (e instanceof StatusError && (e.code === 409 || e.code === 404)) return undefined;
      throw e;
    }
  }

  writeObject(kind: Kind, obj: Obj, manager = 'kube-controller-manager'): Obj | undefined {
    try {
      return this.update(kind, obj.metadata.namespace, obj.metadata.name, obj, { manager });
    } catch (e) {
      if (e instanceof StatusError && (e.code === 409 || e.code === 404)) return undefined;
      throw e;
    }
  }

  /**
   * Events as the real components record them, counted when the same thing happens again. Best
   * effort, as the real recorder: an event refused (a namespace being deleted) is dropped.
   */
  event(involved: Obj, type: 'Normal' | 'Warning', reason: string, message: string, component: string): void {
    try {
      this.recordEvent(involved, type, reason, message, component);
    } catch (e) {
      if (!(e instanceof StatusError)) throw e;
    }
  }

  private recordEvent(
    involved: Obj,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
    component: string,
  ): void {
    const kind = mustKind('Event');
    const namespace = involved.metadata.namespace ?? 'default';
    const [same] = this.store.list(
      kind,
      namespace,
      (e) => e.involvedObject.uid === involved.metadata.uid && e.reason === reason && e.message === message,
    );
    const at = now();
    if (same) {
      this.update(
        kind,
        namespace,
        same.metadata.name,
        { ...same, count: same.count + 1, lastTimestamp: at },
        { manager: component },
        false,
      );
      return;
    }
    if (!this.store.exists(NAMESPACE, undefined, namespace)) return;
    const name = `${involved.metadata.name}.${Date.now().toString(16)}${Math.floor(Math.random() * 0xfff).toString(16)}`;
    this.create(
      kind,
      namespace,
      {
        metadata: { name, namespace },
        involvedObject: {
          kind: involved.kind,
          namespace: involved.metadata.namespace,
          name: involved.metadata.name,
          uid: involved.metadata.uid,
          apiVersion: involved.apiVersion,
          resourceVersion: involved.metadata.resourceVersion,
        },
        reason,
        message,
        source: { component },
        firstTimestamp: at,
        lastTimestamp: at,
        count: 1,
        type,
        eventTime: null,
        reportingComponent: component,
        reportingInstance: '',
      },
      { manager: component },
    );
  }

  static parsePatchType(contentType: string | undefined): PatchType {
    const type = PATCH_TYPES[(contentType ?? '').split(';')[0].trim()];
    if (!type) throw unsupportedMediaType(contentType ?? '');
    return type;
  }

  /** A namespace that exists from the start, as on every real cluster. */
  seedNamespace(name: string): void {
    this.create(NAMESPACE, undefined, { metadata: { name } }, { manager: 'kube-apiserver' });
  }
}

export { StatusError };

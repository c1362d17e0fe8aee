/**
 * A package's Kubernetes manifests as the objects Bosun may apply: YAML documents (bounded
 * aliases, no custom tags) that are each a named object of a kind Bosun knows, in the instance's
 * namespace, and of a kind the package may apply — cluster-scoped and privilege-granting kinds
 * only when the operator lists them in kubernetes.allowKinds. Every refusal names the file, the
 * object and what to change.
 */
import { parseAllDocuments } from 'yaml';
import { InfraError } from '../../../contract.ts';
import { type KindInfo, kindInfo } from '../client/kinds.ts';

export interface ManifestObject {
  info: KindInfo;
  name: string;
  /** The object as written (Bosun's labels are added when it is applied). */
  body: Record<string, unknown>;
  file: string;
}

const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

const isMapping = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const refuse = (file: string, what: string, detail?: Record<string, unknown>) =>
  new InfraError('INVALID_REQUEST', `${file}: ${what}`, { file, ...detail });

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

export interface ObjectLimits {
  maxObjects: number;
  allowKinds: readonly string[];
}

/** The objects of every file, in file order; throws InfraError INVALID_REQUEST on the first refusal. */
export function manifestObjects(texts: Map<string, Buffer>, limits: ObjectLimits): ManifestObject[] {
  const out: ManifestObject[] = [];
  for (const [file, bytes] of texts) {
    const docs = parseAllDocuments(bytes.toString('utf8'), { customTags: [] });
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      if (doc.errors.length) throw refuse(file, `it is not valid YAML: ${doc.errors[0].message}`);
      const value: unknown = doc.toJS({ maxAliasCount: 50 });
      if (value === null || value === undefined) continue;
      out.push(checkObject(file, value, limits));
      if (out.length > limits.maxObjects) {
        throw refuse(
          file,
          `the manifests hold more than ${limits.maxObjects} objects (kubernetes.maxObjects).`,
        );
      }
    }
  }
  return out;
}

function checkObject(file: string, value: unknown, limits: ObjectLimits): ManifestObject {
  if (!isMapping(value)) throw refuse(file, 'a document is not a Kubernetes object (a mapping).');
  const { kind, apiVersion, metadata } = value;
  if (typeof kind !== 'string' || typeof apiVersion !== 'string') {
    throw refuse(file, 'an object has no kind or apiVersion.');
  }
  const name = isMapping(metadata) ? metadata.name : undefined;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw refuse(file, `a ${kind} has no valid metadata.name (lowercase letters, digits, '-' and '.').`);
  }
  if (isMapping(metadata) && metadata.generateName !== undefined) {
    throw refuse(
      file,
      `${kind} ${name}: metadata.generateName is not supported; Bosun applies objects by name.`,
    );
  }
  const known = kindInfo(kind);
  if (!known) {
    throw refuse(file, `${kind} ${name}: Bosun does not apply objects of kind ${kind}.`, { kind });
  }
  if (groupOf(apiVersion) !== groupOf(known.apiVersion)) {
    throw refuse(
      file,
      `${kind} ${name}: apiVersion ${apiVersion} is not the API group of ${kind} (${known.apiVersion}).`,
    );
  }
  if (!known.safe && !limits.allowKinds.includes(kind)) {
    throw refuse(
      file,
      `${kind} ${name}: ${known.namespaced ? 'a privilege-granting' : 'a cluster-scoped'} kind, which packages may apply only when the operator lists ${kind} in kubernetes.allowKinds.`,
      { kind },
    );
  }
  return { info: { ...known, apiVersion }, name, body: value, file };
}

/**
 * The namespace the instance's objects go to: the request's, else the one every namespaced
 * manifest names, else `default` (as Tacker chooses). An object naming another is refused.
 */
export function targetNamespace(requested: unknown, objects: readonly ManifestObject[]): string {
  if (
    requested !== undefined &&
    (typeof requested !== 'string' || !NAME.test(requested) || requested.length > 63)
  ) {
    throw new InfraError(
      'INVALID_REQUEST',
      `additionalParams.namespace ${JSON.stringify(requested)} is not a namespace name.`,
    );
  }
  const named = new Set(
    objects
      .filter((o) => o.info.namespaced)
      .map((o) => (o.body.metadata as Record<string, unknown>).namespace)
      .filter((n): n is string => typeof n === 'string' && n !== ''),
  );
  const namespace = (requested as string | undefined) ?? (named.size === 1 ? [...named][0] : 'default');
  for (const o of objects) {
    const ns = (o.body.metadata as Record<string, unknown>).namespace;
    if (o.info.namespaced && typeof ns === 'string' && ns !== '' && ns !== namespace) {
      throw new InfraError(
        'INVALID_REQUEST',
        `${o.file}: ${o.info.kind} ${o.name} names namespace ${ns}, but the instance's namespace is ${namespace}; an instance's objects are in one namespace (additionalParams.namespace).`,
        { file: o.file },
      );
    }
  }
  return namespace;
}

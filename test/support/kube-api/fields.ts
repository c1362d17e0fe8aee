/**
 * Field sets, the bookkeeping behind server-side apply: which fields of an object a manager set,
 * written as the real server writes them in metadata.managedFields (FieldsV1: `f:name`,
 * `k:{"name":"nginx"}` for an item of a keyed list, `v:"x"` for an item of a set, `.` for an item
 * itself) and printed as it prints them in conflicts (`.spec.template.spec.containers[name="nginx"].image`).
 * A path is its elements joined by newlines; a set holds the leaves and the list items.
 */
import { isAtomicMap, listType } from './kinds.ts';
import type { Obj } from './store.ts';

export type FieldSet = Set<string>;

const SEP = '\n';
const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields no manager owns: identity and bookkeeping. */
const IGNORED_TOP = new Set(['apiVersion', 'kind']);
const IGNORED_META = new Set([
  'name',
  'namespace',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'managedFields',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'selfLink',
]);

/** A key field left out takes its default (a port's protocol is TCP), as in the real schemas. */
const KEY_DEFAULTS: Record<string, unknown> = { protocol: 'TCP' };

export function itemKey(keys: string[], item: Obj): string {
  const k: Obj = {};
  for (const key of keys) k[key] = item[key] ?? KEY_DEFAULTS[key];
  return `k:${JSON.stringify(k)}`;
}

/** The names (without `f:`) of the fields from the root to an element, for list types. */
const names = (elements: string[]) => elements.filter((e) => e.startsWith('f:')).map((e) => e.slice(2));

/**
 * The field set of `obj`. `maps`: also count every map as a member (an update owns the maps it
 * made; an apply owns only leaves and list items).
 */
export function fieldSetOf(obj: Obj, options: { skipStatus?: boolean; maps?: boolean } = {}): FieldSet {
  const out: FieldSet = new Set();
  const walk = (v: unknown, elements: string[]) => {
    // A null is no value: typed objects omit it (a template's creationTimestamp).
    if (v === null) return;
    const path = names(elements);
    if (isMap(v) && Object.keys(v).length && !isAtomicMap(path)) {
      if (options.maps && elements.length) out.add(elements.join(SEP));
      for (const [k, child] of Object.entries(v)) {
        if (elements.length === 0 && (IGNORED_TOP.has(k) || (options.skipStatus && k === 'status'))) continue;
        if (elements.length === 1 && elements[0] === 'f:metadata' && IGNORED_META.has(k)) continue;
        walk(child, [...elements, `f:${k}`]);
      }
      return;
    }
    if (Array.isArray(v) && v.length) {
      const type = listType(path);
      if (type === 'set') {
        for (const item of v) out.add([...elements, `v:${JSON.stringify(item)}`].join(SEP));
        return;
      }
      if (type !== 'atomic' && v.every(isMap)) {
        for (const item of v as Obj[]) {
          const el = [...elements, itemKey(type.keys, item)];
          out.add(el.join(SEP));
          for (const [k, child] of Object.entries(item)) walk(child, [...el, `f:${k}`]);
        }
        return;
      }
    }
    if (elements.length) out.add(elements.join(SEP));
  };
  walk(obj, []);
  // metadata itself is never a leaf of its own.
  out.delete('f:metadata');
  return out;
}

/** The value at a path of `obj` (undefined when absent). */
export function valueAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  for (const el of path.split(SEP)) {
    if (el.startsWith('f:')) cur = isMap(cur) ? cur[el.slice(2)] : undefined;
    else if (el.startsWith('k:')) {
      const key = JSON.parse(el.slice(2)) as Obj;
      cur = Array.isArray(cur)
        ? cur.find((i) => isMap(i) && Object.entries(key).every(([k, v]) => (i[k] ?? KEY_DEFAULTS[k]) === v))
        : undefined;
    } else if (el.startsWith('v:')) {
      const value = JSON.parse(el.slice(2));
      cur = Array.isArray(cur) && cur.includes(value) ? value : undefined;
    }
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Removes what a path names: a field, a list item, a set value. */
export function removeAt(obj: Obj, path: string): void {
  const els = path.split(SEP);
  const last = els.pop()!;
  const parent = els.length ? valueAt(obj, els.join(SEP)) : obj;
  if (last.startsWith('f:') && isMap(parent)) delete parent[last.slice(2)];
  else if (Array.isArray(parent)) {
    const holder = els.length > 1 ? valueAt(obj, els.slice(0, -1).join(SEP)) : obj;
    const field = els[els.length - 1].slice(2);
    const item = valueAt(obj, [...els, last].join(SEP));
    if (isMap(holder)) holder[field] = parent.filter((i) => i !== item);
  }
}

/** FieldsV1 as stored in managedFields. */
export function toFieldsV1(set: FieldSet): Obj {
  const root: Obj = {};
  for (const path of [...set].sort()) {
    let node = root;
    for (const el of path.split(SEP)) node = node[el] ??= {};
    node['.'] = {};
  }
  // A member with no children is written `{}`; with children it keeps `.`.
  const tidy = (node: Obj) => {
    for (const [k, child] of Object.entries(node)) {
      if (k === '.') continue;
      const keys = Object.keys(child);
      if (keys.length === 1 && keys[0] === '.') node[k] = {};
      else tidy(child);
    }
  };
  tidy(root);
  return root;
}

export function fromFieldsV1(tree: Obj | undefined): FieldSet {
  const out: FieldSet = new Set();
  const walk = (node: Obj, elements: string[]) => {
    const keys = Object.keys(node);
    if (elements.length && (keys.length === 0 || '.' in node)) out.add(elements.join(SEP));
    for (const k of keys) if (k !== '.') walk(node[k], [...elements, k]);
  };
  if (tree) walk(tree, []);
  return out;
}

/** `.spec.template.spec.containers[name="nginx"].image`, as conflicts print a path. */
export function printPath(path: string): string {
  return path
    .split(SEP)
    .map((el) => {
      if (el.startsWith('f:')) return `.${el.slice(2)}`;
      if (el.startsWith('k:')) {
        const key = JSON.parse(el.slice(2)) as Obj;
        return `[${Object.entries(key)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
      }
      return `[=${el.slice(2)}]`;
    })
    .join('');
}

/** Paths under (or equal to) `prefix`. */
export const within = (path: string, prefix: string) => path === prefix || path.startsWith(prefix + SEP);

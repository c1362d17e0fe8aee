/**
 * Server-side apply and the managed fields of every write, as the real server keeps them: an
 * apply (PATCH application/apply-patch+yaml) makes its manager own exactly the fields of its
 * configuration, conflicts with any other manager owning a field it would change (409 listing
 * each manager and field, unless forced, which takes them over), and removes the fields it
 * applied before and applies no more when nobody else owns them. Any other write (create,
 * update, patch, a controller's status) makes its manager, operation Update, own what it changed.
 */

import {
  type FieldSet,
  fieldSetOf,
  fromFieldsV1,
  itemKey,
  printPath,
  removeAt,
  toFieldsV1,
  valueAt,
  within,
} from './fields.ts';
import { isAtomicMap, listType } from './kinds.ts';
import { StatusError } from './status.ts';
import { now, type Obj } from './store.ts';

interface Entry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Obj;
  subresource?: string;
}

interface Managed {
  entry: Entry;
  set: FieldSet;
}

const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const read = (obj: Obj | undefined): Managed[] =>
  ((obj?.metadata?.managedFields ?? []) as Entry[]).map((entry) => ({
    entry,
    set: fromFieldsV1(entry.fieldsV1),
  }));

function write(obj: Obj, managed: Managed[]): void {
  const entries = managed.filter((m) => m.set.size).map((m) => ({ ...m.entry, fieldsV1: toFieldsV1(m.set) }));
  if (entries.length) obj.metadata.managedFields = entries;
  else delete obj.metadata.managedFields;
}

/** How a conflict names a manager: `"kubectl"`, or `"kubectl" with subresource "scale" using apps/v1`. */
function printManager(e: Entry): string {
  let s = JSON.stringify(e.manager);
  if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
  return e.operation === 'Update' ? `${s} using ${e.apiVersion}` : s;
}

function conflictError(conflicts: { entry: Entry; path: string }[]): StatusError {
  const causes = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${printManager(c.entry)}`,
    field: printPath(c.path),
  }));
  let message: string;
  if (conflicts.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${printManager(conflicts[0].entry)}: ${printPath(conflicts[0].path)}`;
  } else {
    const byManager = new Map<string, string[]>();
    for (const c of conflicts) {
      const m = printManager(c.entry);
      byManager.set(m, [...(byManager.get(m) ?? []), printPath(c.path)]);
    }
    const lines: string[] = [];
    for (const m of [...byManager.keys()].sort()) {
      lines.push(`conflicts with ${m}:`, ...byManager.get(m)!.map((p) => `- ${p}`));
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new StatusError(409, 'Conflict', message, { causes });
}

/** The applied configuration merged into the live object: keyed lists by key, sets as sets. */
export function mergeApplied(live: unknown, config: unknown, path: string[] = []): unknown {
  if (isMap(config) && isMap(live) && !isAtomicMap(path)) {
    const out: Obj = { ...live };
    for (const [k, v] of Object.entries(config)) out[k] = mergeApplied(live[k], v, [...path, k]);
    return out;
  }
  if (Array.isArray(config) && Array.isArray(live)) {
    const type = listType(path);
    if (type === 'set') return [...live, ...config.filter((v) => !live.includes(v))];
    if (type !== 'atomic' && config.every(isMap) && live.every(isMap)) {
      const key = (i: Obj) => itemKey(type.keys, i);
      const out = live.map((l) => {
        const c = (config as Obj[]).find((x) => key(x) === key(l));
        return c ? mergeApplied(l, c, path) : l;
      });
      for (const c of config as Obj[]) if (!live.some((l) => key(l) === key(c))) out.push(c);
      return out;
    }
  }
  return structuredClone(config);
}

export interface ApplyOptions {
  manager: string;
  force: boolean;
  subresource?: string;
  /** The kind has a status subresource: an apply to the resource sets no status. */
  skipStatus: boolean;
}

/** The object after applying `config` over `live` (undefined when it is created), with its managedFields. */
export function serverSideApply(live: Obj | undefined, config: Obj, o: ApplyOptions): Obj {
  const applied = fieldSetOf(config, { skipStatus: o.skipStatus });
  const managed = read(live);
  const isMine = (m: Managed) =>
    m.entry.manager === o.manager &&
    m.entry.operation === 'Apply' &&
    (m.entry.subresource ?? '') === (o.subresource ?? '');
  const others = managed.filter((m) => !isMine(m));
  const conflicts: { entry: Entry; path: string; owner: Managed }[] = [];
  if (live) {
    for (const owner of others) {
      for (const path of applied) {
        if (!owner.set.has(path) || path.split('\n').pop()!.startsWith('k:')) continue;
        if (!same(valueAt(live, path), valueAt(config, path)))
          conflicts.push({ entry: owner.entry, path, owner });
      }
    }
  }
  if (conflicts.length && !o.force) throw conflictError(conflicts);
  for (const c of conflicts) c.owner.set.delete(c.path);

  const { status: _ignored, ...configBody } = config;
  const body = o.skipStatus ? configBody : config;
  const merged = mergeApplied(live ?? {}, body) as Obj;
  const mine = managed.find(isMine);
  if (mine) {
    const ownedByOthers = (p: string) => others.some((m) => [...m.set].some((q) => within(q, p)));
    const dropped = [...mine.set].filter((p) => !applied.has(p) && !ownedByOthers(p));
    // Deepest first, so that an item is gone before its list is looked at.
    for (const p of dropped.sort((a, b) => b.split('\n').length - a.split('\n').length)) removeAt(merged, p);
  }
  const entry: Entry = {
    manager: o.manager,
    operation: 'Apply',
    apiVersion: config.apiVersion,
    time: now(),
    fieldsType: 'FieldsV1',
    fieldsV1: {},
    ...(o.subresource ? { subresource: o.subresource } : {}),
  };
  const next = [...others, { entry, set: applied }];
  merged.metadata = { ...merged.metadata };
  write(merged, mine ? managed.map((m) => (m === mine ? { entry, set: applied } : m)) : next);
  return merged;
}

export interface UpdateOptions {
  manager: string;
  apiVersion: string;
  subresource?: string;
}

/** Records in `next.metadata.managedFields` that `manager` changed what differs from `old`. */
export function recordUpdate(old: Obj | undefined, next: Obj, o: UpdateOptions): void {
  const managed = read(old);
  const before = old ? fieldSetOf(old, { maps: true }) : new Set<string>();
  const after = fieldSetOf(next, { maps: true });
  const sorted = [...after].sort();
  const changed = new Set<string>();
  sorted.forEach((p, i) => {
    const container = sorted[i + 1]?.startsWith(`${p}\n`);
    if (container ? !before.has(p) : !same(valueAt(old, p), valueAt(next, p))) changed.add(p);
  });
  const gone = [...before].filter((p) => !after.has(p));
  const isMine = (m: Managed) =>
    m.entry.manager === o.manager &&
    m.entry.operation === 'Update' &&
    m.entry.apiVersion === o.apiVersion &&
    (m.entry.subresource ?? '') === (o.subresource ?? '');
  for (const m of managed) {
    for (const p of gone) m.set.delete(p);
    if (!isMine(m)) for (const p of changed) m.set.delete(p);
  }
  const mine = managed.find(isMine);
  if (mine) {
    for (const p of changed) mine.set.add(p);
    if (changed.size) mine.entry = { ...mine.entry, time: now() };
  } else if (changed.size) {
    managed.push({
      entry: {
        manager: o.manager,
        operation: 'Update',
        apiVersion: o.apiVersion,
        time: now(),
        fieldsType: 'FieldsV1',
        fieldsV1: {},
        ...(o.subresource ? { subresource: o.subresource } : {}),
      },
      set: changed,
    });
  }
  next.metadata = { ...next.metadata };
  write(next, managed);
}

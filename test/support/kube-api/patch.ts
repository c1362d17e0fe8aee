/**
 * The three non-apply patch types a real API server accepts: JSON merge patch (RFC 7386),
 * JSON patch (RFC 6902), and strategic merge patch, which merges the lists named in kinds.ts by
 * their key and understands the directives kubectl sends ($setElementOrder, $patch,
 * $retainKeys, $deleteFromPrimitiveList).
 */
import { listType } from './kinds.ts';
import { badRequest, StatusError } from './status.ts';
import type { Obj } from './store.ts';

const isMap = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function jsonMergePatch(target: unknown, patch: unknown): unknown {
  if (!isMap(patch)) return structuredClone(patch);
  const out: Obj = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = jsonMergePatch(out[k], v);
  }
  return out;
}

const pointer = (path: string): string[] =>
  path === ''
    ? []
    : path
        .slice(1)
        .split('/')
        .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));

export function jsonPatch(target: Obj, ops: unknown): Obj {
  if (!Array.isArray(ops))
    throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  // biome-ignore lint/suspicious/noExplicitAny: a JSON document walked by pointer
  let doc: any = structuredClone(target);
  const parentOf = (path: string) => {
    const parts = pointer(path);
    const last = parts.pop()!;
    let cur = doc;
    for (const p of parts) {
      cur = cur?.[Array.isArray(cur) ? Number(p) : p];
      if (cur === undefined)
        throw new StatusError(422, 'Invalid', `doc is missing path: "${path}": missing value`);
    }
    return { cur, last };
  };
  const read = (path: string) => {
    let cur = doc;
    for (const p of pointer(path)) {
      cur = cur?.[Array.isArray(cur) ? Number(p) : p];
      if (cur === undefined)
        throw new StatusError(422, 'Invalid', `doc is missing path: "${path}": missing value`);
    }
    return structuredClone(cur);
  };
  const add = (path: string, value: unknown) => {
    if (path === '') {
      doc = value;
      return;
    }
    const { cur, last } = parentOf(path);
    if (Array.isArray(cur)) cur.splice(last === '-' ? cur.length : Number(last), 0, value);
    else cur[last] = value;
  };
  const remove = (path: string) => {
    const { cur, last } = parentOf(path);
    if (Array.isArray(cur)) cur.splice(Number(last), 1);
    else {
      if (!(last in cur)) throw new StatusError(422, 'Invalid', `doc is missing key: ${path}: missing value`);
      delete cur[last];
    }
  };
  for (const op of ops as Obj[]) {
    switch (op.op) {
      case 'add':
        add(op.path, op.value);
        break;
      case 'remove':
        remove(op.path);
        break;
      case 'replace':
        remove(op.path);
        add(op.path, op.value);
        break;
      case 'move': {
        const v = read(op.from);
        remove(op.from);
        add(op.path, v);
        break;
      }
      case 'copy':
        add(op.path, read(op.from));
        break;
      case 'test':
        if (JSON.stringify(read(op.path)) !== JSON.stringify(op.value))
          throw new StatusError(422, 'Invalid', `testing value ${op.path} failed: test failed`);
        break;
      default:
        throw badRequest(`Unexpected kind: ${op.op}`);
    }
  }
  return doc;
}

function mergeList(path: string[], original: unknown[], patch: unknown[], order?: unknown[]): unknown[] {
  const type = listType(path);
  if (patch.some((p) => isMap(p) && p.$patch === 'replace')) {
    return patch.filter((p) => !(isMap(p) && p.$patch === 'replace'));
  }
  let out: unknown[];
  if (type === 'set') {
    out = [...original];
    for (const v of patch) if (!out.includes(v)) out.push(v);
  } else if (type !== 'atomic') {
    // Strategic merge keys on the first key of the list (the patchMergeKey).
    const key = type.keys[0];
    out = original.map((o) => structuredClone(o));
    for (const p of patch as Obj[]) {
      const i = out.findIndex((o) => isMap(o) && o[key] === p[key]);
      if (p.$patch === 'delete') {
        if (i >= 0) out.splice(i, 1);
      } else if (i >= 0) out[i] = strategicMergePatch(out[i] as Obj, p, path);
      else out.push(strategicMergePatch({}, p, path));
    }
    if (order) {
      const rank = (o: unknown) => {
        const r = order.findIndex((e) => isMap(e) && isMap(o) && e[key] === o[key]);
        return r < 0 ? order.length : r;
      };
      out = out
        .map((o, i) => ({ o, i }))
        .sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i)
        .map((x) => x.o);
    }
  } else out = structuredClone(patch);
  return out;
}

export function strategicMergePatch(original: Obj, patch: Obj, path: string[] = []): Obj {
  if (patch.$patch === 'replace') {
    const { $patch: _, ...rest } = patch;
    return rest;
  }
  const out: Obj = { ...original };
  const orders: Record<string, unknown[]> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$setElementOrder/')) orders[k.slice('$setElementOrder/'.length)] = v as unknown[];
  }
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$setElementOrder/') || k === '$patch' || k === '$retainKeys') continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const drop = new Set(v as unknown[]);
      if (Array.isArray(out[field])) out[field] = (out[field] as unknown[]).filter((x) => !drop.has(x));
      continue;
    }
    if (v === null) delete out[k];
    else if (isMap(v) && v.$patch === 'delete') delete out[k];
    else if (Array.isArray(v))
      out[k] = mergeList([...path, k], Array.isArray(out[k]) ? out[k] : [], v, orders[k]);
    else if (isMap(v)) out[k] = strategicMergePatch(isMap(out[k]) ? out[k] : {}, v, [...path, k]);
    else out[k] = v;
  }
  for (const [k, order] of Object.entries(orders)) {
    if (!(k in patch) && Array.isArray(out[k])) out[k] = mergeList([...path, k], out[k], [], order);
  }
  if (Array.isArray(patch.$retainKeys)) {
    const keep = new Set(patch.$retainKeys as string[]);
    for (const k of Object.keys(out)) if (!keep.has(k)) delete out[k];
  }
  return out;
}

/**
 * Label selectors (`?labelSelector=`, and the LabelSelector objects of workloads) and field
 * selectors (`?fieldSelector=`, which kubectl uses to watch one object by name), with the real
 * server's syntax: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`.
 */
import { badRequest } from './status.ts';
import type { Obj } from './store.ts';

export type Matcher = (labels: Record<string, string> | undefined) => boolean;

/** Splits on commas outside parentheses. */
function terms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out.map((t) => t.trim()).filter(Boolean);
}

function term(t: string): Matcher {
  let m = /^([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(t);
  if (m) {
    const [, key, op, list] = m;
    const values = new Set(list.split(',').map((v) => v.trim()));
    return op === 'in' ? (l) => values.has(l?.[key] as string) : (l) => !values.has(l?.[key] as string);
  }
  m = /^([\w./-]+)\s*(==|=|!=)\s*([\w.-]*)$/.exec(t);
  if (m) {
    const [, key, op, value] = m;
    return op === '!=' ? (l) => l?.[key] !== value : (l) => l?.[key] === value;
  }
  m = /^(!?)([\w./-]+)$/.exec(t);
  if (m) {
    const [, not, key] = m;
    return not ? (l) => !(l && key in l) : (l) => !!l && key in l;
  }
  throw badRequest(`unable to parse requirement: found '${t}', expected: in, notin, =, ==, !=, gt, lt`);
}

export function parseLabelSelector(text: string | null): Matcher {
  if (!text) return () => true;
  const ms = terms(text).map(term);
  return (l) => ms.every((m) => m(l));
}

/** A LabelSelector object (matchLabels and matchExpressions) as a matcher. */
export function labelSelectorMatcher(selector: Obj | undefined): Matcher {
  if (!selector) return () => false;
  const ms: Matcher[] = Object.entries((selector.matchLabels ?? {}) as Record<string, string>).map(
    ([k, v]) =>
      (l) =>
        l?.[k] === v,
  );
  for (const e of (selector.matchExpressions ?? []) as Obj[]) {
    const values = new Set<string>(e.values ?? []);
    const k = e.key as string;
    const op: Record<string, Matcher> = {
      In: (l) => values.has(l?.[k] as string),
      NotIn: (l) => !values.has(l?.[k] as string),
      Exists: (l) => !!l && k in l,
      DoesNotExist: (l) => !(l && k in l),
    };
    ms.push(op[e.operator] ?? (() => false));
  }
  return (l) => ms.every((m) => m(l));
}

/** A LabelSelector as the text `kubectl` shows (`app=web,tier in (a)`), as status.selector is. */
export function selectorText(selector: Obj | undefined): string {
  const parts = Object.entries((selector?.matchLabels ?? {}) as Record<string, string>).map(
    ([k, v]) => `${k}=${v}`,
  );
  for (const e of (selector?.matchExpressions ?? []) as Obj[]) {
    const ops: Record<string, string> = {
      In: `${e.key} in (${(e.values ?? []).join(',')})`,
      NotIn: `${e.key} notin (${(e.values ?? []).join(',')})`,
      Exists: e.key,
      DoesNotExist: `!${e.key}`,
    };
    parts.push(ops[e.operator]);
  }
  return parts.join(',');
}

const FIELD_GETTERS: Record<string, (o: Obj) => unknown> = {
  'metadata.name': (o) => o.metadata?.name,
  'metadata.namespace': (o) => o.metadata?.namespace,
  'status.phase': (o) => o.status?.phase,
  'spec.nodeName': (o) => o.spec?.nodeName ?? '',
  'involvedObject.name': (o) => o.involvedObject?.name,
  'involvedObject.uid': (o) => o.involvedObject?.uid,
  'involvedObject.kind': (o) => o.involvedObject?.kind,
  'involvedObject.namespace': (o) => o.involvedObject?.namespace,
  type: (o) => o.type,
  reason: (o) => o.reason,
};

export function parseFieldSelector(text: string | null): (o: Obj) => boolean {
  if (!text) return () => true;
  const tests = terms(text).map((t) => {
    const m = /^([\w.]+)\s*(==|=|!=)\s*(.*)$/.exec(t);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${t}'`);
    const [, field, op, value] = m;
    const get = FIELD_GETTERS[field];
    if (!get)
      throw badRequest(
        `"${field}" is not a known field selector: only "${Object.keys(FIELD_GETTERS).join('", "')}"`,
      );
    return op === '!='
      ? (o: Obj) => String(get(o) ?? '') !== value
      : (o: Obj) => String(get(o) ?? '') === value;
  });
  return (o) => tests.every((t) => t(o));
}

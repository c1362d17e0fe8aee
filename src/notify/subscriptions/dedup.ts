/**
 * The duplicate key of a subscription: sha-256 of its callback URI, its filter in a normal form
 * and (LCM v2) its verbosity. Two filters that select the same notifications by the same
 * criteria — keys in another order, list entries in another order or repeated, empty lists or
 * objects that constrain nothing — have the same key. A unique index on (project, API, major,
 * key) makes the duplicate check race-free.
 */
import { createHash } from 'node:crypto';

/** Canonical JSON (sorted keys), so that equal documents compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const isEmpty = (value: unknown) =>
  (Array.isArray(value) && value.length === 0) ||
  (value !== null && typeof value === 'object' && Object.keys(value).length === 0);

/**
 * The filter as a set of criteria: lists become sorted sets (SOL lists are OR-ed, so order and
 * repetition do not matter), and empty lists and objects (which match everything) disappear.
 */
export function normalFilter(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(normalFilter);
    const byKey = new Map(items.map((item) => [canonicalJson(item), item]));
    return [...byKey.keys()].sort().map((key) => byKey.get(key));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      const normal = normalFilter(v);
      if (!isEmpty(normal)) out[k] = normal;
    }
    return out;
  }
  return value;
}

export interface DedupFacts {
  callbackUri: string;
  filter?: unknown;
  verbosity?: string;
}

/** Hex sha-256 of the subscription's identity. */
export function dedupKey(facts: DedupFacts): string {
  const identity = {
    callbackUri: facts.callbackUri,
    filter: normalFilter(facts.filter ?? {}),
    ...(facts.verbosity === undefined ? {} : { verbosity: facts.verbosity }),
  };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

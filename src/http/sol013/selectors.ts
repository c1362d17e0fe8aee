/**
 * SOL013 §5.3 attribute selectors (all_fields, fields, exclude_fields, exclude_default): which
 * complex attributes of a resource's JSON representation go into a list response.
 */

import { badRequest } from '../../sol/problem.ts';
import { decodePath } from './filter/path.ts';

/** The selector query parameters as received; flags are present as '' (`?all_fields`). */
export interface SelectorQuery {
  all_fields?: string;
  fields?: string;
  exclude_fields?: string;
  exclude_default?: string;
}

/** A validated selector; paths are decoded segment lists. */
export type Selector =
  | { kind: 'all' }
  | { kind: 'default'; fields?: string[][] }
  | { kind: 'fields'; fields: string[][] }
  | { kind: 'exclude'; fields: string[][] };

function fail(reason: string): never {
  throw badRequest(`Invalid attribute selector: ${reason}.`);
}

const FORBIDDEN_PAIRS: ReadonlyArray<readonly [keyof SelectorQuery, keyof SelectorQuery]> = [
  ['all_fields', 'fields'],
  ['all_fields', 'exclude_fields'],
  ['all_fields', 'exclude_default'],
  ['fields', 'exclude_fields'],
  ['exclude_fields', 'exclude_default'],
];

export function parseSelectors(query: SelectorQuery): Selector {
  for (const name of ['all_fields', 'fields', 'exclude_fields', 'exclude_default'] as const) {
    const value: unknown = query[name];
    if (value !== undefined && typeof value !== 'string') fail(`'${name}' must be given at most once`);
  }
  for (const flag of ['all_fields', 'exclude_default'] as const) {
    if (query[flag] !== undefined && query[flag] !== '')
      fail(`'${flag}' is a flag and takes no value, got '${query[flag]}'`);
  }
  for (const [a, b] of FORBIDDEN_PAIRS) {
    if (query[a] !== undefined && query[b] !== undefined) fail(`'${a}' cannot be combined with '${b}'`);
  }
  if (query.all_fields !== undefined) return { kind: 'all' };
  if (query.exclude_fields !== undefined)
    return { kind: 'exclude', fields: parseList('exclude_fields', query.exclude_fields) };
  if (query.fields === undefined) return { kind: 'default' };
  const fields = parseList('fields', query.fields);
  return query.exclude_default !== undefined ? { kind: 'default', fields } : { kind: 'fields', fields };
}

function parseList(name: string, text: string): string[][] {
  if (text === '') fail(`'${name}' needs a comma-separated list of attribute paths`);
  return text.split(',').map((item, index) => {
    if (item === '') fail(`'${name}' has an empty item at index ${index} in '${text}'`);
    const decoded = decodePath(item);
    if (!decoded.ok) fail(`'${name}' item '${item}': ${decoded.error}`);
    return decoded.path;
  });
}

const REMOVE = Symbol('remove');
type Result = unknown | typeof REMOVE;
/** Remove the subtree at `path`, or (with `keep`) reduce it to the `keep` sub-paths. */
type Rule = { path: string[]; keep?: string[][] };

const isComplex = (value: unknown): value is object => typeof value === 'object' && value !== null;
const startsWith = (path: string[], prefix: string[]) =>
  prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment);
const under = <R extends { path: string[] }>(rules: R[], key: string): R[] =>
  rules.filter((r) => r.path[0] === key).map((r) => ({ ...r, path: r.path.slice(1) }));

/**
 * Applies a selector to a resource's JSON representation. Returns a new object; subtrees left
 * untouched are shared with the input, which is never mutated. `defaultExcluded` are '/'-paths
 * of the complex attributes the resource leaves out by default.
 */
export function applySelector<T extends object>(
  resource: T,
  selector: Selector,
  defaultExcluded: readonly string[],
): Partial<T> {
  switch (selector.kind) {
    case 'all':
      return { ...resource };
    case 'fields': {
      const rules = selector.fields.map((path) => ({ path }));
      return mapTop(resource, (key, value) => {
        const sub = under(rules, key);
        return sub.length > 0
          ? pick(
              value,
              sub.map((r) => r.path),
            )
          : REMOVE;
      });
    }
    case 'exclude': {
      const rules: Rule[] = selector.fields.map((path) => ({ path }));
      return mapTop(resource, (key, value) => prune(value, under(rules, key)));
    }
    case 'default': {
      const rules = defaultRules(defaultExcluded, selector.fields ?? []);
      return mapTop(resource, (key, value) => prune(value, under(rules, key)));
    }
  }
}

/** Default exclusions minus what `fields` asks for: a listed ancestor keeps all, a listed descendant keeps part. */
function defaultRules(defaultExcluded: readonly string[], fields: string[][]): Rule[] {
  const rules: Rule[] = [];
  for (const path of defaultExcluded.map((p) => p.split('/'))) {
    if (fields.some((field) => startsWith(path, field))) continue;
    const keep = fields.filter((field) => startsWith(field, path)).map((field) => field.slice(path.length));
    rules.push(keep.length > 0 ? { path, keep } : { path });
  }
  return rules;
}

/** Simple top-level attributes and `_links` are always kept; `fn` decides for the other ones. */
function mapTop<T extends object>(resource: T, fn: (key: string, value: object) => Result): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(resource)) {
    const result = key === '_links' || !isComplex(value) ? value : fn(key, value);
    if (result !== REMOVE) out[key] = result;
  }
  return out as Partial<T>;
}

/** Keeps only `paths` inside `node` (arrays: in every element); an empty path keeps the whole node. */
function pick(node: unknown, paths: string[][]): Result {
  if (paths.some((p) => p.length === 0)) return node;
  if (Array.isArray(node)) return node.map((element) => pick(element, paths)).filter((e) => e !== REMOVE);
  if (!isComplex(node)) return REMOVE; // a path cannot go inside a scalar: nothing of it is wanted
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const sub = paths.filter((p) => p[0] === key).map((p) => p.slice(1));
    const result = sub.length > 0 ? pick(value, sub) : REMOVE;
    if (result !== REMOVE) out[key] = result;
  }
  return out;
}

/** Applies removal rules inside `node` (arrays: in every element). */
function prune(node: unknown, rules: Rule[]): Result {
  if (rules.length === 0) return node;
  const ending = rules.find((r) => r.path.length === 0);
  if (ending) return ending.keep ? pick(node, ending.keep) : REMOVE;
  if (Array.isArray(node)) return node.map((element) => prune(element, rules));
  if (!isComplex(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const sub = under(rules, key);
    const result = sub.length > 0 ? prune(value, sub) : value;
    if (result !== REMOVE) out[key] = result;
  }
  return out;
}

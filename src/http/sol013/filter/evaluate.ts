/**
 * Evaluates a bound filter against a resource's JSON representation (what the client sees).
 *
 * Semantics, shared with sql.ts (tests hold the two paths to the same answers):
 * - Arrays anywhere along the path are transparent; a positive term (eq, gt, gte, lt, lte, in, cont)
 *   matches when ANY reached value satisfies it.
 * - A negative term (neq, nin, ncont) is the negation of its positive twin: `neq` matches when NO
 *   reached value equals, so `(neq,tags,x)` excludes resources having x among their tags.
 * - Absent or null is not equal: positive terms never match it, negative terms always do.
 * - Strings compare by Unicode code point (the order of SQLite BINARY and PostgreSQL COLLATE "C").
 */
import type { AttributeType } from '../../../sol/attributes.ts';
import type { BoundFilter, BoundTerm, BoundValue } from './bind.ts';
import { parseNumber } from './bind.ts';
import { parseInstant } from './datetime.ts';
import type { FilterOp } from './parse.ts';

export const NEGATED: Readonly<Partial<Record<FilterOp, FilterOp>>> = { neq: 'eq', nin: 'in', ncont: 'cont' };

export function matchesFilter(resource: unknown, filter: BoundFilter): boolean {
  return filter.terms.every((term) => matchesTerm(resource, term));
}

export function matchesTerm(resource: unknown, term: BoundTerm): boolean {
  const leaves: unknown[] = [];
  collect(resource, term.path, 0, leaves);
  const positive = NEGATED[term.op];
  if (positive) return !leaves.some((leaf) => satisfies(leaf, positive, term));
  return leaves.some((leaf) => satisfies(leaf, term.op, term));
}

/** Values at `path`, flattening arrays at every level; null and missing values are skipped. */
function collect(node: unknown, path: readonly string[], depth: number, out: unknown[]): void {
  if (node === null || node === undefined) return;
  if (Array.isArray(node)) {
    for (const element of node) collect(element, path, depth, out);
  } else if (depth === path.length) {
    out.push(node);
  } else if (typeof node === 'object' && Object.hasOwn(node, path[depth])) {
    collect((node as Record<string, unknown>)[path[depth]], path, depth + 1, out);
  }
}

function satisfies(leaf: unknown, op: FilterOp, term: BoundTerm): boolean {
  if (op === 'cont') return term.values.some((value) => contains(leaf, value as string, term.spec.type));
  return term.values.some((value) => {
    const c = compare(leaf, value, term.spec.type);
    if (c === undefined) return false;
    switch (op) {
      case 'gt':
        return c > 0;
      case 'gte':
        return c >= 0;
      case 'lt':
        return c < 0;
      case 'lte':
        return c <= 0;
      default: // eq, in
        return c === 0;
    }
  });
}

function contains(leaf: unknown, value: string, type: AttributeType): boolean {
  if (typeof leaf === 'string') return leaf.includes(value);
  // keyValue data is typed by the data: search the text a client sees for numbers and booleans.
  if (type === 'keyValue' && (typeof leaf === 'number' || typeof leaf === 'boolean')) {
    return String(leaf).includes(value);
  }
  return false;
}

/** Sign of leaf − value, or undefined when the data value cannot be compared (wrong type). */
function compare(leaf: unknown, value: BoundValue, type: AttributeType): number | undefined {
  switch (type) {
    case 'number':
      return typeof leaf === 'number' ? Math.sign(leaf - (value as number)) : undefined;
    case 'datetime': {
      const ms = typeof leaf === 'string' ? parseInstant(leaf) : undefined;
      return ms === undefined ? undefined : Math.sign(ms - (value as number));
    }
    case 'boolean':
      return typeof leaf === 'boolean' ? Number(leaf) - Number(value) : undefined;
    case 'keyValue':
      return compareKeyValue(leaf, value as string);
    default: // string, uuid, enum
      return typeof leaf === 'string' ? compareCodePoints(leaf, value as string) : undefined;
  }
}

/** The filter text takes the type of the data value; datetimes stay strings (data carries no type). */
function compareKeyValue(leaf: unknown, text: string): number | undefined {
  if (typeof leaf === 'string') return compareCodePoints(leaf, text);
  if (typeof leaf === 'number') {
    const n = parseNumber(text);
    return n === undefined ? undefined : Math.sign(leaf - n);
  }
  if (typeof leaf === 'boolean') {
    return text === 'true' || text === 'false' ? Number(leaf) - Number(text === 'true') : undefined;
  }
  return undefined;
}

/** Code point order; plain `<` on JS strings orders UTF-16 units, which differs past U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (U+D800–DFFF, i.e. code points above U+FFFF) after U+E000–FFFF. */
function rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

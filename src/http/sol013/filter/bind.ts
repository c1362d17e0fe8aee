/**
 * Checks parsed filter terms against a resource's declared attributes: the attribute exists, the
 * operator suits its type, and each value is coerced to that type once, before any evaluation.
 */
import type { AttributeMap, AttributeSpec, AttributeType } from '../../../sol/attributes.ts';
import { badRequest } from '../../../sol/problem.ts';
import { parseInstant } from './datetime.ts';
import { type FilterOp, type FilterTerm, parseFilter } from './parse.ts';
import { encodePath } from './path.ts';

/**
 * A value coerced to its attribute's type: number for `number`, epoch milliseconds for `datetime`,
 * boolean for `boolean`, the string itself for string/uuid/enum, and the raw string for `keyValue`
 * (coerced per data value at evaluation time).
 */
export type BoundValue = string | number | boolean;

export interface BoundTerm {
  op: FilterOp;
  /** Full attribute path (decoded segments), e.g. ['userDefinedData', 'foo']. */
  path: readonly string[];
  /** The AttributeMap key the path resolved to, e.g. 'userDefinedData'. */
  attribute: string;
  spec: AttributeSpec;
  values: readonly BoundValue[];
  /** From the parsed term, for messages. */
  source: string;
  position: number;
}

/** A filter ready to evaluate: the AND of its terms. */
export interface BoundFilter {
  terms: readonly BoundTerm[];
}

const ORDERED: readonly FilterOp[] = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'];
const EQUALITY: readonly FilterOp[] = ['eq', 'neq', 'in', 'nin'];
const ALL: readonly FilterOp[] = [...ORDERED, 'cont', 'ncont'];
const OPS_BY_TYPE: Readonly<Record<AttributeType, readonly FilterOp[]>> = {
  string: ALL,
  uuid: ALL,
  keyValue: ALL,
  number: ORDERED,
  datetime: ORDERED,
  boolean: EQUALITY,
  enum: EQUALITY,
};

function termError(term: FilterTerm, reason: string): never {
  throw badRequest(
    `Invalid filter expression at position ${term.position} (term "${term.source}"): ${reason}.`,
  );
}

/** Resolves a path: an exact key, or a sub-key of a keyValue attribute. */
function resolve(path: readonly string[], attributes: AttributeMap): [string, AttributeSpec] | undefined {
  // Declared keys never contain an escaped '/', so a prefix holding one cannot match.
  for (let n = path.length; n > 0; n--) {
    if (path[n - 1].includes('/')) continue;
    const key = path.slice(0, n).join('/');
    if (!Object.hasOwn(attributes, key)) continue;
    const spec = attributes[key];
    if (n === path.length || spec.type === 'keyValue') return [key, spec];
  }
  return undefined;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Strict decimal number (Number() would also accept '', ' ', '0x10'). */
export function parseNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

function coerce(term: FilterTerm, name: string, spec: AttributeSpec, raw: string): BoundValue {
  switch (spec.type) {
    case 'number': {
      const n = parseNumber(raw);
      if (n === undefined) termError(term, `value '${raw}' is not a number for attribute '${name}'`);
      return n;
    }
    case 'boolean':
      if (raw !== 'true' && raw !== 'false') {
        termError(term, `value '${raw}' is not a boolean (true or false) for attribute '${name}'`);
      }
      return raw === 'true';
    case 'datetime': {
      const ms = parseInstant(raw);
      if (ms === undefined) {
        termError(
          term,
          `value '${raw}' is not an RFC 3339 date-time (e.g. 2026-01-01T00:00:00Z; encode '+' as %2B in a URL) for attribute '${name}'`,
        );
      }
      // Stored datetimes are 4-digit-year ISO strings; outside that range string order breaks.
      if (new Date(ms).toISOString().length !== 24)
        termError(term, `value '${raw}' is out of range for '${name}'`);
      return ms;
    }
    case 'enum':
      if (!spec.values?.includes(raw)) {
        termError(
          term,
          `value '${raw}' is not allowed for attribute '${name}'; expected one of ${spec.values?.join(', ')}`,
        );
      }
      return raw;
    default:
      return raw;
  }
}

export function bindFilter(terms: readonly FilterTerm[], attributes: AttributeMap): BoundFilter {
  return {
    terms: terms.map((term) => {
      const name = encodePath(term.path);
      const resolved = resolve(term.path, attributes);
      if (!resolved) termError(term, `unknown attribute '${name}'`);
      const [attribute, spec] = resolved;
      if (spec.type === 'keyValue' && term.path.length === attribute.split('/').length) {
        termError(
          term,
          `attribute '${name}' is a key/value map; filter on one of its keys, e.g. '${name}/<key>'`,
        );
      }
      const allowed = OPS_BY_TYPE[spec.type];
      if (!allowed.includes(term.op)) {
        termError(
          term,
          `operator '${term.op}' is not allowed on ${spec.type} attribute '${name}'; use one of ${allowed.join(', ')}`,
        );
      }
      const values = term.values.map((raw) => coerce(term, name, spec, raw));
      return {
        op: term.op,
        path: term.path,
        attribute,
        spec,
        values,
        source: term.source,
        position: term.position,
      };
    }),
  };
}

/** parseFilter + bindFilter: the `filter` query parameter of a list request, ready to evaluate. */
export function compileFilter(expression: string, attributes: AttributeMap): BoundFilter {
  return bindFilter(parseFilter(expression), attributes);
}

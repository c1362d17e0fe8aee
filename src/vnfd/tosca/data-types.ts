/**
 * Checks a value against a TOSCA type (primitive, list/map with entry_schema, scalar-unit, or a
 * data type, recursively) and its constraints, and applies data-type property defaults. Values
 * that are still intrinsic function calls (e.g. `get_input` of an input without a value) cannot be
 * checked and are left as they are.
 */
import { ownValue } from '../../own-properties.ts';
import type { Diagnostics, Location, ToleratedCode } from '../diagnostics.ts';
import { checkConstraints, show } from './constraints.ts';
import { isFunctionCall } from './functions.ts';
import type { PropertyDefinition, ToscaType } from './model.ts';
import { PRIMITIVE_TYPES } from './normative-types.ts';
import { parseScalarUnit, SCALAR_TYPES, unitsOf } from './scalar-units.ts';
import { isMap, type Registry } from './type-registry.ts';
import { copyLoc, valueLoc } from './yaml-source.ts';

export interface ValueSchema {
  type: string;
  entrySchema?: { type: string; constraints?: unknown[] };
  constraints?: unknown[];
}

export interface ValueContext {
  registry: Registry;
  diags: Diagnostics;
  /** Constraint violations are reported with this tolerated code instead of as errors. */
  toleratedConstraint?: ToleratedCode;
}

/**
 * Validates `value` (written at `at`) against `schema`; `what` names it in messages (e.g.
 * `property "provider" of node template "VNF"`). Returns the value with data-type defaults added.
 */
export function checkValue(
  value: unknown,
  schema: ValueSchema,
  what: string,
  at: Location,
  ctx: ValueContext,
): unknown {
  if (isFunctionCall(value)) return value;
  const checked = checkType(value, schema.type, what, at, ctx);
  if (!checked.ok) return value;
  if (schema.constraints && schema.constraints.length > 0) {
    constrain(checked.value, schema.constraints, schema.type, what, at, ctx);
  }
  const out = checked.value;
  if (schema.type === 'list' && Array.isArray(out) && schema.entrySchema) {
    const entry = schema.entrySchema;
    return copyLoc(
      out.map((item, i) => checkValue(item, entry, `${what}[${i}]`, valueLoc(out, i) ?? at, ctx)),
      out,
    );
  }
  if (schema.type === 'map' && isMap(out) && schema.entrySchema) {
    const entry = schema.entrySchema;
    const res: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(out)) {
      defineEntry(res, k, checkValue(v, entry, `${what}.${k}`, valueLoc(out, k) ?? at, ctx));
    }
    return copyLoc(res, out);
  }
  return out;
}

/**
 * Checks a map of property assignments against property definitions: unknown names, missing
 * required ones, defaults applied. `owner` names the holder in messages. Returns the values.
 */
export function checkProperties(
  values: Record<string, unknown> | undefined,
  defs: Record<string, PropertyDefinition>,
  owner: string,
  at: Location,
  ctx: ValueContext,
  options: { applyDefaults?: boolean; checkRequired?: boolean; missingSeverity?: 'error' | 'warning' } = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const given = values ?? {};
  for (const [name, v] of Object.entries(given)) {
    const def = ownValue(defs, name);
    const loc = valueLoc(given, name) ?? at;
    if (!def) {
      ctx.diags.error(
        'TOSCA_UNKNOWN_PROPERTY',
        `${owner} has no property ${name} (known: ${Object.keys(defs).join(', ') || 'none'})`,
        loc,
      );
      continue;
    }
    defineEntry(out, name, checkValue(v, def, `property ${name} of ${owner}`, loc, ctx));
  }
  for (const [name, def] of Object.entries(defs)) {
    if (Object.hasOwn(given, name)) continue;
    if (def.default !== undefined && options.applyDefaults !== false) {
      defineEntry(
        out,
        name,
        checkValue(def.default, def, `default of property ${name} of ${owner}`, at, ctx),
      );
    } else if (def.required && options.checkRequired !== false) {
      const message = `${owner} is missing the required property ${name}`;
      if (options.missingSeverity === 'warning') ctx.diags.warning('TOSCA_MISSING_PROPERTY', message, at);
      else ctx.diags.error('TOSCA_MISSING_PROPERTY', message, at);
    }
  }
  return copyLoc(out, values);
}

type Checked = { ok: true; value: unknown } | { ok: false };

/** The TOSCA primitive types: what a value must be, and how it is named when it is not. */
const PRIMITIVES = new Map<string, { accepts: (value: unknown) => boolean; expected: string }>([
  ['string', { accepts: (v) => typeof v === 'string', expected: 'a string' }],
  [
    'integer',
    {
      // tosca-parser accepts integers written as strings; so do we (the value is kept as written).
      accepts: (v) =>
        (typeof v === 'number' && Number.isInteger(v)) ||
        (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())),
      expected: 'an integer',
    },
  ],
  [
    'float',
    {
      accepts: (v) =>
        typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))),
      expected: 'a number',
    },
  ],
  [
    'boolean',
    {
      accepts: (v) => typeof v === 'boolean' || (typeof v === 'string' && /^(true|false)$/i.test(v)),
      expected: 'a boolean',
    },
  ],
  [
    'timestamp',
    {
      accepts: (v) => v instanceof Date || (typeof v === 'string' && !Number.isNaN(Date.parse(v))),
      expected: 'a timestamp',
    },
  ],
  [
    'version',
    {
      accepts: (v) =>
        (typeof v === 'string' && /^\d+(\.\d+){0,2}([.-][0-9A-Za-z_.-]+)?$/.test(v)) ||
        (typeof v === 'number' && v >= 0),
      expected: 'a version (major.minor.fix[.qualifier-build])',
    },
  ],
  [
    'range',
    {
      accepts: (v) =>
        Array.isArray(v) &&
        v.length === 2 &&
        Number.isInteger(v[0]) &&
        (Number.isInteger(v[1]) || v[1] === 'UNBOUNDED'),
      expected: 'a range [min, max]',
    },
  ],
  ['list', { accepts: (v) => Array.isArray(v), expected: 'a list' }],
  ['map', { accepts: (v) => isMap(v), expected: 'a map' }],
  ['any', { accepts: () => true, expected: 'anything' }],
  ['null', { accepts: (v) => v === null, expected: 'null' }],
]);

function checkType(value: unknown, type: string, what: string, at: Location, ctx: ValueContext): Checked {
  const wrong = (expected: string): Checked => {
    ctx.diags.error('TOSCA_WRONG_TYPE', `${what}: ${show(value)} is not ${expected}`, at);
    return { ok: false };
  };
  const scalar = ownValue(SCALAR_TYPES, type);
  if (scalar) {
    return parseScalarUnit(value, scalar)
      ? { ok: true, value }
      : wrong(`a ${type} (a number and one of the units ${unitsOf(scalar)}, e.g. "1 GB")`);
  }
  const primitive = PRIMITIVES.get(type);
  if (primitive) return primitive.accepts(value) ? { ok: true, value } : wrong(primitive.expected);
  const dt = ctx.registry.lookup(type, 'data');
  if (!dt) {
    // The unknown type itself is reported where it is declared.
    return { ok: false };
  }
  return checkDataType(value, dt, what, at, ctx, wrong);
}

/** A value of a data type: a refined primitive with its constraints, or a map of properties. */
function checkDataType(
  value: unknown,
  dt: ToscaType,
  what: string,
  at: Location,
  ctx: ValueContext,
  wrong: (expected: string) => Checked,
): Checked {
  const chain = ctx.registry.chain(dt.name);
  const primitive = chain.find((t) => PRIMITIVE_TYPES.has(t));
  if (primitive) {
    // A data type refining a primitive (e.g. PortDef: integer in 1..65535).
    const base = checkType(value, primitive, what, at, ctx);
    if (!base.ok) return base;
    for (const t of chain) {
      const c = ctx.registry.get(t)?.definition.constraints;
      if (Array.isArray(c)) constrain(value, c, primitive, what, at, ctx);
    }
    return base;
  }
  if (!isMap(value)) return wrong(`a map (data type ${dt.name})`);
  const props = checkProperties(value, dt.properties, `${what} (data type ${dt.name})`, at, ctx);
  const ownConstraints = dt.definition.constraints;
  if (Array.isArray(ownConstraints)) constrain(props, ownConstraints, 'map', what, at, ctx);
  return { ok: true, value: props };
}

function constrain(
  value: unknown,
  constraints: unknown[],
  type: string,
  what: string,
  at: Location,
  ctx: ValueContext,
) {
  for (const p of checkConstraints(value, constraints, SCALAR_TYPES[type])) {
    if (p.malformed) ctx.diags.warning('TOSCA_BAD_CONSTRAINT', `${what}: ${p.message}`, at);
    else if (ctx.toleratedConstraint)
      ctx.diags.tolerated(ctx.toleratedConstraint, `${what}: value ${show(value)} ${p.message}`, at);
    else ctx.diags.error('TOSCA_CONSTRAINT', `${what}: value ${show(value)} ${p.message}`, at);
  }
}

/** Sets a key without tripping over `__proto__` and friends. */
export function defineEntry(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

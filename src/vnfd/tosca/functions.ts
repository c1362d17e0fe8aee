/**
 * TOSCA intrinsic functions used in SOL001 VNFDs. `get_input`, `get_property`, `concat`, `join`
 * and `token` are evaluated when their arguments are known at load time; `get_attribute` (and
 * anything depending on a runtime value, such as an input without a default) stays as written, a
 * `{name: args}` map, for the layer that has the runtime values.
 */
import type { Location } from '../diagnostics.ts';
import { isMap } from './type-registry.ts';
import { copyLoc, valueLoc } from './yaml-source.ts';

export const FUNCTION_NAMES = new Set([
  'get_input',
  'get_property',
  'get_attribute',
  'get_operation_output',
  'get_nodes_of_type',
  'get_artifact',
  'concat',
  'join',
  'token',
]);

/** True for a `{function_name: args}` map. */
export function isFunctionCall(v: unknown): v is Record<string, unknown> {
  if (!isMap(v)) return false;
  const keys = Object.keys(v);
  return keys.length === 1 && FUNCTION_NAMES.has(keys[0]);
}

/** True when the value still contains a function call somewhere. */
export function containsFunction(v: unknown): boolean {
  if (isFunctionCall(v)) return true;
  if (Array.isArray(v)) return v.some(containsFunction);
  if (isMap(v)) return Object.values(v).some(containsFunction);
  return false;
}

export interface FunctionScope {
  /** Declared inputs: the value (assigned or default) when there is one. */
  input(name: string): { declared: boolean; hasValue: boolean; value?: unknown };
  /** Name of the template the value belongs to (for SELF). */
  self?: string;
  /**
   * A property of a node template (already evaluated), or of one of its capabilities when
   * `capability` is given. `node` undefined means the template does not exist.
   */
  property(
    node: string,
    name: string,
    capability?: string,
  ): { node: boolean; found: boolean; value?: unknown };
  report(code: string, message: string, at: Location): void;
}

/** Evaluates the functions inside `value` (written at `at`), recursively. */
export function evaluate(value: unknown, scope: FunctionScope, at: Location): unknown {
  if (isFunctionCall(value)) {
    const [name, args] = Object.entries(value)[0];
    return evaluateCall(name, args, value, scope, valueLoc(value, name) ?? at);
  }
  if (Array.isArray(value)) {
    return copyLoc(
      value.map((v, i) => evaluate(v, scope, valueLoc(value, i) ?? at)),
      value,
    );
  }
  if (isMap(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, {
        value: evaluate(v, scope, valueLoc(value, k) ?? at),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copyLoc(out, value);
  }
  return value;
}

function isPrimitive(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** Evaluates one call of a function given its arguments; returns `call` when it cannot yet. */
type Evaluator = (
  args: unknown,
  call: Record<string, unknown>,
  scope: FunctionScope,
  at: Location,
) => unknown;

function evaluateCall(
  name: string,
  args: unknown,
  call: Record<string, unknown>,
  scope: FunctionScope,
  at: Location,
): unknown {
  // get_attribute and friends depend on runtime state: they have no evaluator.
  const evaluator = EVALUATORS.get(name);
  return evaluator ? evaluator(args, call, scope, at) : call;
}

const getInput: Evaluator = (args, call, scope, at) => {
  const [input, ...path] = Array.isArray(args) ? args : [args];
  if (typeof input !== 'string') {
    scope.report('TOSCA_FUNCTION', `get_input needs an input name, got ${JSON.stringify(input)}`, at);
    return call;
  }
  const found = scope.input(input);
  if (!found.declared) {
    scope.report('TOSCA_UNKNOWN_INPUT', `get_input: the topology has no input named ${input}`, at);
    return call;
  }
  if (!found.hasValue) return call;
  return walk(found.value, path, `get_input ${input}`, scope, at, call);
};

/** `[entity, property, keys…]`, else `[entity, capability, property, keys…]`. */
const getProperty: Evaluator = (args, call, scope, at) => {
  if (
    !Array.isArray(args) ||
    args.length < 2 ||
    !args.every((a) => typeof a === 'string' || typeof a === 'number')
  ) {
    scope.report('TOSCA_FUNCTION', 'get_property needs [entity, (capability,) property, (nested keys…)]', at);
    return call;
  }
  const [entity, ...rest] = args as (string | number)[];
  if (entity === 'SOURCE' || entity === 'TARGET' || entity === 'HOST') return call;
  const node = entity === 'SELF' ? scope.self : String(entity);
  if (node === undefined) return call;
  const direct = scope.property(node, String(rest[0]));
  if (!direct.node) {
    scope.report('TOSCA_FUNCTION', `get_property: there is no node template named ${node}`, at);
    return call;
  }
  if (direct.found)
    return walk(direct.value, rest.slice(1), `get_property ${node}.${rest[0]}`, scope, at, call);
  if (rest.length >= 2) {
    const cap = scope.property(node, String(rest[1]), String(rest[0]));
    if (cap.found) {
      return walk(cap.value, rest.slice(2), `get_property ${node}.${rest[0]}.${rest[1]}`, scope, at, call);
    }
  }
  scope.report('TOSCA_FUNCTION', `get_property: node template ${node} has no property ${rest[0]}`, at);
  return call;
};

const concat: Evaluator = (args, call, scope, at) => {
  if (!Array.isArray(args)) {
    scope.report('TOSCA_FUNCTION', 'concat needs a list of strings', at);
    return call;
  }
  const parts = args.map((a) => evaluate(a, scope, at));
  return parts.every(isPrimitive) ? parts.map(String).join('') : { concat: parts };
};

const join: Evaluator = (args, call, scope, at) => {
  if (!Array.isArray(args) || !Array.isArray(args[0])) {
    scope.report('TOSCA_FUNCTION', 'join needs [[strings…], delimiter]', at);
    return call;
  }
  const parts = (args[0] as unknown[]).map((a) => evaluate(a, scope, at));
  const delimiter = args[1] === undefined ? '' : evaluate(args[1], scope, at);
  if (parts.every(isPrimitive) && isPrimitive(delimiter)) return parts.map(String).join(String(delimiter));
  return { join: args[1] === undefined ? [parts] : [parts, delimiter] };
};

const token: Evaluator = (args, call, scope, at) => {
  if (!Array.isArray(args) || args.length !== 3) {
    scope.report('TOSCA_FUNCTION', 'token needs [string, separator characters, index]', at);
    return call;
  }
  const s = evaluate(args[0], scope, at);
  const chars = args[1];
  const index = args[2];
  if (typeof chars !== 'string' || typeof index !== 'number') {
    scope.report('TOSCA_FUNCTION', 'token needs [string, separator characters, index]', at);
    return call;
  }
  if (typeof s !== 'string') return { token: [s, chars, index] };
  const tokens = s.split(new RegExp(`[${chars.replace(/[\]\\^-]/g, '\\$&')}]`));
  if (index < 0 || index >= tokens.length) {
    scope.report('TOSCA_FUNCTION', `token: ${JSON.stringify(s)} has no token ${index}`, at);
    return call;
  }
  return tokens[index];
};

const EVALUATORS = new Map<string, Evaluator>([
  ['get_input', getInput],
  ['get_property', getProperty],
  ['concat', concat],
  ['join', join],
  ['token', token],
]);

/** Follows nested keys / list indexes into a value. */
function walk(
  value: unknown,
  path: unknown[],
  what: string,
  scope: FunctionScope,
  at: Location,
  call: unknown,
): unknown {
  let v = value;
  for (const key of path) {
    if (isFunctionCall(v)) return call;
    if (Array.isArray(v) && typeof key === 'number' && key >= 0 && key < v.length) v = v[key];
    else if (isMap(v) && typeof key === 'string' && Object.hasOwn(v, key)) v = v[key];
    else {
      scope.report('TOSCA_FUNCTION', `${what}: no entry ${JSON.stringify(key)}`, at);
      return call;
    }
  }
  return v;
}

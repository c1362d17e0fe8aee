/**
 * TOSCA constraint clauses (equal, greater_than, greater_or_equal, less_than, less_or_equal,
 * in_range, valid_values, length, min_length, max_length, pattern). Scalar-unit values compare in
 * their base unit, so `greater_or_equal: 1 GB` accepts "1024 MB".
 */
import { parseScalarUnit, type ScalarKind } from './scalar-units.ts';

export interface ConstraintProblem {
  /** True when the constraint itself is malformed (the VNFD's type is wrong, not the value). */
  malformed: boolean;
  /** The constraint as written, e.g. `valid_values: [a, b]`. */
  constraint: string;
  message: string;
}

export const CONSTRAINT_KINDS = [
  'equal',
  'greater_than',
  'greater_or_equal',
  'less_than',
  'less_or_equal',
  'in_range',
  'valid_values',
  'length',
  'min_length',
  'max_length',
  'pattern',
] as const;

/** Checks `value` against every clause; returns the clauses it violates (empty when fine). */
export function checkConstraints(
  value: unknown,
  constraints: readonly unknown[],
  scalar?: ScalarKind,
): ConstraintProblem[] {
  const problems: ConstraintProblem[] = [];
  for (const clause of constraints) {
    if (
      typeof clause !== 'object' ||
      clause === null ||
      Array.isArray(clause) ||
      Object.keys(clause).length !== 1
    ) {
      problems.push({
        malformed: true,
        constraint: show(clause),
        message: 'a constraint must be a map with one key',
      });
      continue;
    }
    const [kind, arg] = Object.entries(clause)[0];
    const text = `${kind}: ${show(arg)}`;
    const result = checkOne(kind, arg, value, scalar);
    if (result === 'malformed') {
      problems.push({
        malformed: true,
        constraint: text,
        message: `unsupported or malformed constraint ${text}`,
      });
    } else if (!result) {
      problems.push({ malformed: false, constraint: text, message: `violates ${text}` });
    }
  }
  return problems;
}

function checkOne(kind: string, arg: unknown, value: unknown, scalar?: ScalarKind): boolean | 'malformed' {
  const cmp = (a: unknown, b: unknown) => compare(a, b, scalar);
  switch (kind) {
    case 'equal':
      return cmp(value, arg) === 0;
    case 'greater_than':
      return orMalformed(cmp(value, arg), (c) => c > 0);
    case 'greater_or_equal':
      return orMalformed(cmp(value, arg), (c) => c >= 0);
    case 'less_than':
      return orMalformed(cmp(value, arg), (c) => c < 0);
    case 'less_or_equal':
      return orMalformed(cmp(value, arg), (c) => c <= 0);
    case 'in_range': {
      if (!Array.isArray(arg) || arg.length !== 2) return 'malformed';
      const lo = cmp(value, arg[0]);
      const hi = arg[1] === 'UNBOUNDED' ? -1 : cmp(value, arg[1]);
      if (lo === undefined || hi === undefined) return 'malformed';
      return lo >= 0 && hi <= 0;
    }
    case 'valid_values':
      if (!Array.isArray(arg)) return 'malformed';
      return arg.some((v) => cmp(value, v) === 0);
    case 'length':
    case 'min_length':
    case 'max_length': {
      if (typeof arg !== 'number') return 'malformed';
      const n = lengthOf(value);
      if (n === undefined) return false;
      return kind === 'length' ? n === arg : kind === 'min_length' ? n >= arg : n <= arg;
    }
    case 'pattern': {
      if (typeof arg !== 'string') return 'malformed';
      let re: RegExp;
      try {
        re = new RegExp(`^(?:${arg})$`, 'u');
      } catch {
        return 'malformed';
      }
      return typeof value === 'string' && re.test(value);
    }
    default:
      return 'malformed';
  }
}

function orMalformed(c: number | undefined, test: (c: number) => boolean): boolean | 'malformed' {
  return c === undefined ? 'malformed' : test(c);
}

function lengthOf(value: unknown): number | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return undefined;
}

/** Orders two values of the same type; undefined when they cannot be compared. */
function compare(a: unknown, b: unknown, scalar?: ScalarKind): number | undefined {
  if (scalar) {
    const x = parseScalarUnit(a, scalar)?.base;
    const y = parseScalarUnit(b, scalar)?.base;
    if (x !== undefined && y !== undefined) return Math.sign(x - y);
  }
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  if (typeof a === 'object' && typeof b === 'object')
    return JSON.stringify(a) === JSON.stringify(b) ? 0 : undefined;
  return undefined;
}

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

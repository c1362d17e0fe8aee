/**
 * SOL013 §5.2 filter grammar: `(op,attrPath,value[,value...])` terms joined by ';' (AND).
 * A hand-written single-pass scanner: linear in the input, and every error names the position
 * (1-based) and the term, so a client can fix the expression.
 */
import { badRequest } from '../../../sol/problem.ts';
import { decodePath } from './path.ts';

export const SINGLE_VALUE_OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const;
export const MULTI_VALUE_OPS = ['in', 'nin', 'cont', 'ncont'] as const;
export type FilterOp = (typeof SINGLE_VALUE_OPS)[number] | (typeof MULTI_VALUE_OPS)[number];
const OPS: readonly string[] = [...SINGLE_VALUE_OPS, ...MULTI_VALUE_OPS];

/** One parsed `(op,path,values)` term, not yet checked against a resource's attributes. */
export interface FilterTerm {
  op: FilterOp;
  /** Attribute name segments, tilde escapes decoded. */
  path: string[];
  /** Values with quotes removed and '' unescaped; at least one. */
  values: string[];
  /** The term as written, e.g. `(eq,id,1)`. */
  source: string;
  /** 1-based position of the term's '(' in the expression. */
  position: number;
}

const EXCERPT_MAX = 60;

/** Excerpt of the term starting at `start`, up to the ')' at or after `at`, for messages. */
function excerpt(expr: string, start: number, at: number): string {
  let end = expr.indexOf(')', at);
  if (end < 0) end = expr.length - 1;
  const text = expr.slice(start, end + 1);
  return text.length > EXCERPT_MAX ? `${text.slice(0, EXCERPT_MAX)}…` : text;
}

function fail(expr: string, termStart: number, at: number, reason: string): never {
  const term = termStart < expr.length ? ` (term "${excerpt(expr, termStart, at)}")` : '';
  throw badRequest(`Invalid filter expression at position ${at + 1}${term}: ${reason}.`);
}

export function parseFilter(expression: string): FilterTerm[] {
  const expr = expression;
  if (expr === '') throw badRequest('Invalid filter expression: the expression is empty.');
  const terms: FilterTerm[] = [];
  let i = 0;
  for (;;) {
    const start = i;
    if (expr[i] === ';') fail(expr, expr.length, i, "empty term: expected '(' before ';'");
    if (expr[i] !== '(') fail(expr, start, i, `expected '(' to start a term, found '${expr[i]}'`);
    i++;

    const opStart = i;
    while (i < expr.length && !',();'.includes(expr[i])) i++;
    const op = expr.slice(opStart, i);
    if (op === '') fail(expr, start, opStart, 'missing operator');
    if (!OPS.includes(op))
      fail(expr, start, opStart, `unknown operator '${op}'; expected one of ${OPS.join(', ')}`);
    if (expr[i] !== ',') fail(expr, start, i, `missing attribute after operator '${op}'`);
    i++;

    const attrStart = i;
    while (i < expr.length && !",()';".includes(expr[i])) i++;
    const decoded = decodePath(expr.slice(attrStart, i));
    if (!decoded.ok) fail(expr, start, attrStart + decoded.offset, decoded.error);
    if (i >= expr.length || expr[i] === ')')
      fail(expr, start, i, `missing value after attribute '${expr.slice(attrStart, i)}'`);
    if (expr[i] !== ',') fail(expr, start, i, `character '${expr[i]}' is not allowed in an attribute name`);
    i++;

    const values: string[] = [];
    for (;;) {
      const valueStart = i;
      let value: string;
      if (expr[i] === "'") {
        // Quoted: '' is a literal quote; anything else, including ',' and ')', is literal.
        value = '';
        i++;
        for (;;) {
          const quote = expr.indexOf("'", i);
          if (quote < 0) fail(expr, start, valueStart, 'unterminated quoted value');
          value += expr.slice(i, quote);
          i = quote + 1;
          if (expr[i] !== "'") break;
          value += "'";
          i++;
        }
        if (i < expr.length && expr[i] !== ',' && expr[i] !== ')') {
          fail(expr, start, i, `unexpected '${expr[i]}' after a quoted value; expected ',' or ')'`);
        }
      } else {
        while (i < expr.length && !",)'".includes(expr[i])) i++;
        value = expr.slice(valueStart, i);
        if (expr[i] === "'") {
          fail(
            expr,
            start,
            i,
            "a quote inside a value: quote the whole value and double the inner quote ('')",
          );
        }
        if (value === '') fail(expr, start, valueStart, 'missing value');
      }
      values.push(value);
      if (i >= expr.length) fail(expr, start, i, "missing ')' at the end of the term");
      if (expr[i++] === ')') break;
    }
    if (values.length > 1 && (SINGLE_VALUE_OPS as readonly string[]).includes(op)) {
      fail(expr, start, opStart, `operator '${op}' takes exactly one value, got ${values.length}`);
    }
    terms.push({
      op: op as FilterOp,
      path: decoded.path,
      values,
      source: expr.slice(start, i),
      position: start + 1,
    });

    if (i >= expr.length) return terms;
    if (expr[i] !== ';') fail(expr, start, i, `unexpected text after ')'; terms are joined with ';'`);
    i++;
    if (i >= expr.length) fail(expr, expr.length, i - 1, "trailing ';' without a term after it");
  }
}

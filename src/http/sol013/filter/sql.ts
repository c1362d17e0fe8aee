/**
 * Pushes filter terms on declared columns into SQL, with exactly the semantics of evaluate.ts:
 * NULL behaves like an absent attribute (positive ops never match, negative ops always do),
 * strings order by code point, datetimes are ISO-8601 UTC text with milliseconds.
 */
import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { BoundFilter, BoundTerm, BoundValue } from './bind.ts';
import { NEGATED } from './evaluate.ts';
import type { FilterOp } from './parse.ts';

export type SqlDialect = 'sqlite' | 'postgres';

/** Terms that can run in the database (attribute has a column and is not a keyValue map) vs the rest. */
export function splitFilter(filter: BoundFilter): { pushdown: BoundTerm[]; inMemory: BoundTerm[] } {
  const pushdown: BoundTerm[] = [];
  const inMemory: BoundTerm[] = [];
  for (const term of filter.terms) {
    (term.spec.column !== undefined && term.spec.type !== 'keyValue' ? pushdown : inMemory).push(term);
  }
  return { pushdown, inMemory };
}

/** AND of the terms as a WHERE expression; `1 = 1` when there are none. */
export function filterToSql<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  terms: readonly BoundTerm[],
  dialect: SqlDialect,
): Expression<SqlBool> {
  return eb.and(terms.map((term) => termToSql(term, dialect)));
}

/** Escapes LIKE wildcards and the escape character itself, for `LIKE ? ESCAPE '\'`. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

function termToSql(term: BoundTerm, dialect: SqlDialect): RawBuilder<SqlBool> {
  const column = term.spec.column;
  if (column === undefined || term.spec.type === 'keyValue') {
    throw new Error(`filter term ${term.source} cannot be pushed down to SQL; use splitFilter`);
  }
  const col = sql.ref(column);
  const positive = NEGATED[term.op];
  if (!positive) return positiveSql(term, term.op, dialect);
  return sql<SqlBool>`(${col} IS NULL OR NOT (${positiveSql(term, positive, dialect)}))`;
}

const COMPARISON: Readonly<Partial<Record<FilterOp, string>>> = { gt: '>', gte: '>=', lt: '<', lte: '<=' };

function positiveSql(term: BoundTerm, op: FilterOp, dialect: SqlDialect): RawBuilder<SqlBool> {
  const col = sql.ref(term.spec.column!);
  const params = term.values.map((value) => toParam(value, term, dialect));
  if (op === 'eq') return sql<SqlBool>`${col} = ${params[0]}`;
  if (op === 'in') return sql<SqlBool>`${col} IN (${sql.join(params)})`;
  if (op === 'cont') {
    // SQLite's LIKE ignores ASCII case, unlike String.includes; instr is an exact substring test.
    const tests = term.values.map((value) =>
      dialect === 'sqlite'
        ? sql<SqlBool>`instr(${col}, ${value}) > 0`
        : sql<SqlBool>`${col} LIKE ${`%${escapeLike(value as string)}%`} ESCAPE '\\'`,
    );
    return sql<SqlBool>`(${sql.join(tests, sql` OR `)})`;
  }
  // Text in PostgreSQL orders by the database locale unless told otherwise; "C" is code point order.
  const text = term.spec.type !== 'number' && dialect === 'postgres';
  return sql<SqlBool>`${col}${sql.raw(text ? ' COLLATE "C" ' : ' ')}${sql.raw(COMPARISON[op]!)} ${params[0]}`;
}

function toParam(value: BoundValue, term: BoundTerm, dialect: SqlDialect): BoundValue {
  if (term.spec.type === 'datetime') return new Date(value as number).toISOString();
  if (term.spec.type === 'boolean' && dialect === 'sqlite') return value ? 1 : 0;
  return value;
}

/**
 * Many rows as one PostgreSQL SELECT FROM unnest(): one array parameter per column, so a batch of
 * thousands of rows is a short statement that the server parses and plans once, where multi-row
 * VALUES binds a parameter per value (tens of thousands) and must be split into several
 * statements. The rows come out in the order given (WITH ORDINALITY), so identity ids follow it.
 */
import { type RawBuilder, sql } from 'kysely';

/** Column names and their PostgreSQL element types, e.g. `{ id: 'text', version: 'integer' }`. */
export type ColumnTypes = Readonly<Record<string, 'text' | 'integer' | 'bigint' | 'boolean'>>;

export interface UnnestRows {
  /** The column list, for `insert into t (…)`. */
  columns: RawBuilder<unknown>;
  /** `select … from unnest(…)`, the rows in the order given. */
  select: RawBuilder<unknown>;
}

export function unnestRows(types: ColumnTypes, rows: readonly object[]): UnnestRows {
  const names = Object.keys(types);
  const columns = sql.join(names.map((name) => sql.ref(name)));
  const arrays = sql.join(
    names.map((name) => {
      const values = rows.map((row) => (row as Record<string, unknown>)[name] ?? null);
      return sql`${values}::${sql.raw(types[name])}[]`;
    }),
  );
  return {
    columns,
    select: sql`select ${columns} from unnest(${arrays}) with ordinality as u(${columns}, n) order by n`,
  };
}

/**
 * Many rows as one PostgreSQL SELECT over a single JSON parameter (json_to_recordset): a batch
 * of thousands of rows is a short statement parsed and planned once. Multi-row VALUES binds a
 * parameter per value (tens of thousands, split over several statements), and unnest() of one
 * text array per column makes the server parse array literals full of escaped quotes; measured
 * on 5,000 outbox rows, one JSON document is the fastest of the three. The rows come out in
 * the order given (WITH ORDINALITY), so identity ids follow it.
 */
import { type RawBuilder, sql } from 'kysely';

/** Column names and their PostgreSQL types, e.g. `{ id: 'text', version: 'integer' }`. */
export type ColumnTypes = Readonly<Record<string, 'text' | 'integer' | 'bigint' | 'boolean'>>;

export interface JsonRows {
  /** The column list, for `insert into t (…)`. */
  columns: RawBuilder<unknown>;
  /** `select … from json_to_recordset(…)`, the rows in the order given. */
  select: RawBuilder<unknown>;
}

export function jsonRows(types: ColumnTypes, rows: readonly object[]): JsonRows {
  const names = Object.keys(types);
  const columns = sql.join(names.map((name) => sql.ref(name)));
  const definitions = sql.join(names.map((name) => sql`${sql.ref(name)} ${sql.raw(types[name])}`));
  // A missing (undefined) value is null; keys beyond the columns are ignored.
  const document = JSON.stringify(rows);
  return {
    columns,
    select: sql`select ${columns} from rows from (json_to_recordset(${document}::json) as (${definitions}))
      with ordinality as u(${columns}, n) order by n`,
  };
}

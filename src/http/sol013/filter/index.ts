/** SOL013 §5.2 attribute filters: parse → bind (to a resource's AttributeMap) → evaluate in memory and/or SQL. */
export type { BoundFilter, BoundTerm, BoundValue } from './bind.ts';
export { bindFilter, compileFilter } from './bind.ts';
export { matchesFilter } from './evaluate.ts';
export type { FilterOp, FilterTerm } from './parse.ts';
export { parseFilter } from './parse.ts';
export type { SqlDialect } from './sql.ts';
export { escapeLike, filterToSql, splitFilter } from './sql.ts';

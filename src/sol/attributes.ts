/**
 * What a resource declares about the attributes clients may filter on (SOL013 §5.2).
 * Filters on anything not declared are rejected, so each list endpoint states its vocabulary here.
 */

/**
 * Type of a filterable attribute; decides which operators are allowed and how values are coerced.
 * `keyValue` is a free-form map (e.g. `userDefinedData`): any sub-key may be filtered, and values are
 * compared using the type found in the data.
 */
export type AttributeType = 'string' | 'number' | 'boolean' | 'datetime' | 'enum' | 'uuid' | 'keyValue';

/** Declaration of one filterable attribute. */
export interface AttributeSpec {
  /** Value type of the attribute (of each element, when it sits inside arrays). */
  type: AttributeType;
  /** Allowed values, for `enum` attributes only. */
  values?: readonly string[];
  /**
   * SQL column holding this top-level scalar attribute, e.g. `'id'` or `'vnf_instances.id'`.
   * Setting it lets the filter be evaluated in the database (see `splitFilter`). Text columns are
   * assumed for string, uuid, enum and datetime (ISO-8601 UTC with milliseconds); 0/1 integers in
   * SQLite and `boolean` in PostgreSQL for booleans. Ignored for `keyValue`.
   */
  column?: string;
}

/**
 * Filterable attributes of a resource, keyed by path with '/' separators on the JSON representation:
 * `'id'`, `'softwareImages/minDisk'`, `'userDefinedData'` (keyValue: `userDefinedData/foo/bar` is
 * accepted). Arrays are transparent: `'softwareImages/minDisk'` addresses `minDisk` of every element
 * of the `softwareImages` array.
 */
export type AttributeMap = Readonly<Record<string, AttributeSpec>>;

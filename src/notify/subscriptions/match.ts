/**
 * The SOL matching rule every notifications filter shares: inside a filter all present
 * attributes must match (AND); inside a list any entry (OR); an absent or empty list matches all.
 */

/** Whether `actual` is one of `wanted`; an absent or empty `wanted` matches anything. */
export function listMatches(wanted: readonly string[] | undefined, actual: string | undefined): boolean {
  return !wanted || wanted.length === 0 || (actual !== undefined && wanted.includes(actual));
}

/** Whether an optional list criterion constrains anything. */
export const isSet = (list: readonly unknown[] | undefined): list is readonly unknown[] =>
  list !== undefined && list.length > 0;

/** Shared assertion for the SOL013 tests: `fn` throws a 400 ApiError whose detail has every fragment. */
import assert from 'node:assert/strict';
import { ApiError } from '../../../../src/sol/problem.ts';

export function assertBadRequest(fn: () => unknown, ...fragments: string[]): string {
  let detail = '';
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.equal(err.status, 400);
    detail = err.detail;
    return true;
  });
  for (const fragment of fragments) {
    assert.ok(
      detail.includes(fragment),
      `detail ${JSON.stringify(detail)} lacks ${JSON.stringify(fragment)}`,
    );
  }
  return detail;
}

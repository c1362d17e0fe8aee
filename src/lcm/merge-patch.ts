import { ownValue, setOwn } from '../own-properties.ts';

/**
 * RFC 7386 JSON merge patch: objects merge recursively, null deletes, anything else replaces.
 * Keys are data: `__proto__` or `constructor` in a patch are kept, as a POST keeps them.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    target !== null && typeof target === 'object' && !Array.isArray(target)
      ? { ...(target as Record<string, unknown>) }
      : {};
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete base[key];
    else setOwn(base, key, mergePatch(ownValue(base, key), value));
  }
  return base;
}

export const mergeRecord = (target: Record<string, unknown>, patch: unknown): Record<string, unknown> =>
  mergePatch(target, patch ?? {}) as Record<string, unknown>;

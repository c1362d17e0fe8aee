/**
 * Small TypeBox helpers for the subscription schemas: a string enumeration as a plain JSON
 * schema `enum` (ajv then reports "must be one of …", where a union of literals would report
 * "must match a schema in anyOf").
 */
import { type TUnsafe, Type } from '@sinclair/typebox';

export function stringEnum<const T extends readonly string[]>(
  values: T,
  description?: string,
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({
    type: 'string',
    enum: [...values],
    ...(description ? { description } : {}),
  });
}

/**
 * Builders of the LCM request schemas of every major and version: top-level attributes are
 * closed (a misspelt attribute is a 400 naming it); the nested SOL data types stay open where SOL
 * lets them grow (extVirtualLinks, cpConfig, …).
 */
import { type TSchema, Type } from '@sinclair/typebox';

export const id = (description?: string) =>
  Type.String({ minLength: 1, maxLength: 255, ...(description ? { description } : {}) });

export const keyValue = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const closed = <T extends Record<string, TSchema>>(
  properties: T,
  description: string,
  extra: Record<string, unknown> = {},
) => Type.Object(properties, { additionalProperties: false, description, ...extra });

export const open = <T extends Record<string, TSchema>>(properties: T, description: string) =>
  Type.Object(properties, { additionalProperties: true, description });

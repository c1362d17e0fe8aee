/** Marks a configuration key as secret: `bosun config show` masks its value. */
import type { TSchema } from '@sinclair/typebox';

export const secret = <T extends TSchema>(schema: T) => ({ ...schema, secret: true }) as T;

/** The configuration as it may be shown: values of keys marked `secret` are masked. */
import type { TSchema } from '@sinclair/typebox';
import { ConfigSchema } from './schema.ts';

const MASK = '********';

function maskUrl(value: string): string {
  // Keep a connection URL readable (scheme, host, database) while hiding its password.
  try {
    const url = new URL(value);
    if (url.password) url.password = MASK;
    return url.toString();
  } catch {
    return value ? MASK : value;
  }
}

function maskNode(schema: TSchema, value: unknown): unknown {
  if (schema.secret) {
    if (typeof value !== 'string' || value === '') return value;
    return /^[a-z]+:\/\//.test(value) ? maskUrl(value) : value.startsWith('sqlite:') ? value : MASK;
  }
  if (schema.type === 'array' && schema.items && Array.isArray(value)) {
    return value.map((item) => maskNode(schema.items as TSchema, item));
  }
  if (schema.type === 'object' && schema.properties && value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const child = (schema.properties as Record<string, TSchema>)[key];
      out[key] = child ? maskNode(child, v) : v;
    }
    return out;
  }
  return value;
}

export function maskSecrets<T>(config: T): T {
  return maskNode(ConfigSchema, config) as T;
}

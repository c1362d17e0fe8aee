/**
 * BOSUN_* environment overrides. Every leaf key of the schema has exactly one variable name,
 * derived from its path: server.bodyLimit → BOSUN_SERVER_BODY_LIMIT. Unknown BOSUN_* names are
 * an error (a typo must not silently fall back to a default).
 */
import type { TSchema } from '@sinclair/typebox';
import { ConfigError } from './errors.ts';

/** BOSUN_* variables that are not configuration keys (the CLI's client settings among them). */
const NOT_CONFIG = [
  /^BOSUN_CONFIG$/,
  /^BOSUN_TEST_/,
  /^BOSUN_BENCH_/,
  /^BOSUN_(URL|TOKEN|CLIENT_ID|CLIENT_SECRET)$/,
];

const snake = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

export interface EnvLeaf {
  variable: string;
  path: string[];
  schema: TSchema;
}

export function envLeaves(schema: TSchema, path: string[] = []): EnvLeaf[] {
  if (schema.type === 'object' && schema.properties) {
    return Object.entries(schema.properties as Record<string, TSchema>).flatMap(([key, child]) =>
      envLeaves(child, [...path, key]),
    );
  }
  return [{ variable: ['BOSUN', ...path.map(snake)].join('_'), path, schema }];
}

const SCALARS = ['string', 'integer', 'number', 'boolean'];
const isScalarList = (schema: TSchema) =>
  schema.type === 'array' && SCALARS.includes((schema.items as TSchema | undefined)?.type);

/**
 * A list of scalars is also accepted as a plain comma list (`127.0.0.1,::1`), each item read
 * as its type; JSON (`["127.0.0.1"]`) stays accepted. Lists of objects need JSON.
 */
function parseCommaList(leaf: EnvLeaf, raw: string): unknown[] {
  if (raw.trim() === '') return [];
  const items = raw.split(',').map((item) => item.trim());
  if (items.includes('')) throw new ConfigError(`${leaf.variable}: empty item in the comma list '${raw}'`);
  return items.map((item) => parseValue({ ...leaf, schema: leaf.schema.items as TSchema }, item));
}

function parseValue(leaf: EnvLeaf, raw: string): unknown {
  const { schema, variable } = leaf;
  const kind = schema.type;
  if (isScalarList(schema) && !raw.trimStart().startsWith('[')) return parseCommaList(leaf, raw);
  if (kind === 'integer' || kind === 'number') {
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n)) {
      throw new ConfigError(`${variable}: '${raw}' is not a number`);
    }
    return n;
  }
  if (kind === 'boolean') {
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    throw new ConfigError(`${variable}: '${raw}' is not a boolean (true/false)`);
  }
  if (kind === 'object' || kind === 'array') {
    try {
      return JSON.parse(raw);
    } catch {
      const or = isScalarList(schema) ? ' or a comma list' : '';
      throw new ConfigError(`${variable}: expected JSON (${kind})${or}, got '${raw}'`);
    }
  }
  return raw;
}

export function applyEnv(schema: TSchema, target: Record<string, unknown>, env: NodeJS.ProcessEnv): string[] {
  const leaves = new Map(envLeaves(schema).map((l) => [l.variable, l]));
  const applied: string[] = [];
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('BOSUN_') || raw === undefined || NOT_CONFIG.some((re) => re.test(name))) continue;
    const leaf = leaves.get(name);
    if (!leaf) {
      throw new ConfigError(`${name}: not a Bosun configuration variable (see 'bosun config show --env')`);
    }
    let node = target;
    for (const key of leaf.path.slice(0, -1)) {
      const next = node[key];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[leaf.path[leaf.path.length - 1]] = parseValue(leaf, raw);
    applied.push(name);
  }
  return applied;
}

/**
 * Loads the effective configuration: schema defaults ← YAML file ← BOSUN_* environment,
 * validated against the schema, then checked for combinations that are unsafe.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import type { Static, TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parse as parseYaml } from 'yaml';
import { applyEnv } from './env.ts';
import { ConfigError } from './errors.ts';
import { ConfigSchema } from './schema.ts';

export type Config = Static<typeof ConfigSchema>;

export interface LoadOptions {
  /** Path of the YAML file; when absent, BOSUN_CONFIG, then ./bosun.yaml if it exists. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Values applied over the file and environment (tests, CLI flags). */
  overrides?: Record<string, unknown>;
}

function readFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`${file}: cannot read configuration file (${(err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text, { maxAliasCount: 50 });
  } catch (err) {
    throw new ConfigError(`${file}: invalid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError(`${file}: the configuration must be a YAML mapping`);
  }
  return doc as Record<string, unknown>;
}

/** `over` merged into `base`, objects key by key, anything else replaced. */
export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && b && typeof b === 'object' && !Array.isArray(b)
        ? deepMerge(b as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

function describeError(e: { path: string; message: string; value: unknown; schema: TSchema }): string {
  const key = e.path.replace(/^\//, '').replaceAll('/', '.') || '(root)';
  if (e.message.startsWith('Unexpected property')) return `${key}: unknown key`;
  const allowed = e.schema.anyOf
    ? ` (one of ${(e.schema.anyOf as TSchema[]).map((s) => s.const).join(', ')})`
    : '';
  return `${key}: ${e.message.toLowerCase()}${allowed}, got ${JSON.stringify(e.value)}`;
}

export const isLoopback = (address: string) =>
  address === 'localhost' || address === '::1' || (isIP(address) === 4 && address.startsWith('127.'));

function checkCombinations(config: Config): void {
  if (
    config.auth.mode === 'none' &&
    !isLoopback(config.server.bind) &&
    !config.server.allowUnauthenticatedNetwork
  ) {
    throw new ConfigError(
      `server.bind: '${config.server.bind}' is not a loopback address and auth.mode is 'none' — anyone who ` +
        `reaches it would be admin. Set auth.mode to 'oauth2', or set server.allowUnauthenticatedNetwork to true.`,
    );
  }
  const url = config.database.url;
  if (!/^sqlite:.+/.test(url) && !/^postgres(ql)?:\/\//.test(url)) {
    throw new ConfigError(
      `database.url: expected 'sqlite:<file>' or 'postgres://…', got '${url.split('@').pop()}'`,
    );
  }
  if (url.startsWith('postgres') && !config.security.encryptionKey) {
    throw new ConfigError(
      'security.encryptionKey: required with PostgreSQL, so that every replica decrypts the same secrets ' +
        "(generate one with: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\")",
    );
  }
  for (const pattern of config.lcm.placementReselectPatterns) {
    try {
      new RegExp(pattern, 'i');
    } catch (err) {
      throw new ConfigError(
        `lcm.placementReselectPatterns: '${pattern}' is not a regular expression (${(err as Error).message})`,
      );
    }
  }
  const key = config.security.encryptionKey;
  if (key && Buffer.from(key, 'base64').length !== 32) {
    throw new ConfigError('security.encryptionKey: must be the base64 encoding of exactly 32 bytes');
  }
  if (
    config.auth.mode === 'oauth2' &&
    !config.auth.oauth2.builtinTokenEndpoint &&
    !config.auth.oauth2.jwksUrl
  ) {
    throw new ConfigError(
      'auth.oauth2: with builtinTokenEndpoint false, jwksUrl must name the token issuer JWKS',
    );
  }
}

export function resolveConfigFile(options: LoadOptions): string | undefined {
  const env = options.env ?? process.env;
  if (options.file) return options.file;
  if (env.BOSUN_CONFIG) return env.BOSUN_CONFIG;
  return existsSync('bosun.yaml') ? 'bosun.yaml' : undefined;
}

export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env;
  const file = resolveConfigFile(options);
  let raw: Record<string, unknown> = file ? readFile(file) : {};
  applyEnv(ConfigSchema, raw, env);
  if (options.overrides) raw = deepMerge(raw, options.overrides);
  const withDefaults = Value.Default(ConfigSchema, raw) as unknown;
  const errors = [...Value.Errors(ConfigSchema, withDefaults)];
  if (errors.length > 0) {
    const where = file ? ` (file ${file} and BOSUN_* environment)` : ' (BOSUN_* environment)';
    const lines = [...new Set(errors.map(describeError))];
    throw new ConfigError(`invalid configuration${where}:\n  ${lines.join('\n  ')}`);
  }
  const config = withDefaults as Config;
  checkCombinations(config);
  return config;
}

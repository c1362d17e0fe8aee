/**
 * Where the CLI finds the server and how it authenticates: flags first, then BOSUN_* environment,
 * then the configuration's `server` section (the URL only). Each connection says where its URL
 * came from, for the error when the server cannot be reached.
 */
import type { Command } from 'commander';

export interface ConnectionOptions {
  url?: string;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  config?: string;
}

export interface Connection {
  /** Base URL without a trailing slash. */
  url: string;
  /** Where the URL came from: `--url`, `BOSUN_URL` or the configuration's keys. */
  source: string;
  token?: string;
  client?: { id: string; secret: string };
}

/** Adds --url, --token, --client-id, --client-secret and --config to a command. */
export function withConnectionOptions(command: Command): Command {
  return command
    .option(
      '--url <url>',
      "Bosun server URL (env BOSUN_URL; default: the configuration's server.publicUrl, else server.bind and server.port)",
    )
    .option('--token <token>', 'bearer token (env BOSUN_TOKEN)')
    .option('--client-id <id>', 'OAuth 2.0 client id, to get a token (env BOSUN_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth 2.0 client secret (env BOSUN_CLIENT_SECRET)')
    .option('-c, --config <file>', 'YAML configuration file (for the default URL)');
}

/** The CLI client's own variables, which the configuration loader must not see. */
export const CLIENT_ENV = ['BOSUN_URL', 'BOSUN_TOKEN', 'BOSUN_CLIENT_ID', 'BOSUN_CLIENT_SECRET'];

const configEnv = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !CLIENT_ENV.includes(k)));

/** Addresses a server listens on everywhere: the CLI reaches it on loopback. */
const WILDCARD: Record<string, string> = { '0.0.0.0': '127.0.0.1', '::': '::1', '': '127.0.0.1' };

/** The server the configuration describes: its publicUrl, else where it listens. */
async function configuredServer(opts: ConnectionOptions, env: NodeJS.ProcessEnv) {
  // The configuration loader (schema, YAML) is loaded only when no URL is given.
  const { loadConfig, resolveConfigFile } = await import('../../config/load.ts');
  const options = { file: opts.config, env: configEnv(env) };
  const { server } = loadConfig(options);
  const from = `of the configuration (${resolveConfigFile(options) ?? 'defaults'} and BOSUN_* environment)`;
  if (server.publicUrl) return { url: server.publicUrl, source: `server.publicUrl ${from}` };
  const host = WILDCARD[server.bind] ?? server.bind;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${server.port}`,
    source: `server.bind and server.port ${from}`,
  };
}

export async function resolveConnection(
  opts: ConnectionOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Connection> {
  const { url, source } = opts.url
    ? { url: opts.url, source: '--url' }
    : env.BOSUN_URL
      ? { url: env.BOSUN_URL, source: 'BOSUN_URL' }
      : await configuredServer(opts, env);
  const token = opts.token ?? env.BOSUN_TOKEN;
  const id = opts.clientId ?? env.BOSUN_CLIENT_ID;
  const secret = opts.clientSecret ?? env.BOSUN_CLIENT_SECRET;
  return {
    url: url.replace(/\/+$/, ''),
    source,
    token: token || undefined,
    client: id && secret !== undefined ? { id, secret } : undefined,
  };
}

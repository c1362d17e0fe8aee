/**
 * Where the CLI finds the server and how it authenticates: flags first, then BOSUN_* environment,
 * then the loaded configuration (the URL only).
 */
import type { Command } from 'commander';
import { loadConfig } from '../../config/load.ts';

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
  token?: string;
  client?: { id: string; secret: string };
}

/** Adds --url, --token, --client-id, --client-secret and --config to a command. */
export function withConnectionOptions(command: Command): Command {
  return command
    .option('--url <url>', 'Bosun server URL (env BOSUN_URL; default 127.0.0.1 on the configured port)')
    .option('--token <token>', 'bearer token (env BOSUN_TOKEN)')
    .option('--client-id <id>', 'OAuth 2.0 client id, to get a token (env BOSUN_CLIENT_ID)')
    .option('--client-secret <secret>', 'OAuth 2.0 client secret (env BOSUN_CLIENT_SECRET)')
    .option('-c, --config <file>', 'YAML configuration file (for the default URL)');
}

/** The CLI client's own variables, which the configuration loader must not see. */
export const CLIENT_ENV = ['BOSUN_URL', 'BOSUN_TOKEN', 'BOSUN_CLIENT_ID', 'BOSUN_CLIENT_SECRET'];

const configEnv = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([k]) => !CLIENT_ENV.includes(k)));

export function resolveConnection(opts: ConnectionOptions, env: NodeJS.ProcessEnv = process.env): Connection {
  const url =
    opts.url ??
    env.BOSUN_URL ??
    `http://127.0.0.1:${loadConfig({ file: opts.config, env: configEnv(env) }).server.port}`;
  const token = opts.token ?? env.BOSUN_TOKEN;
  const id = opts.clientId ?? env.BOSUN_CLIENT_ID;
  const secret = opts.clientSecret ?? env.BOSUN_CLIENT_SECRET;
  return {
    url: url.replace(/\/+$/, ''),
    token: token || undefined,
    client: id && secret !== undefined ? { id, secret } : undefined,
  };
}

/**
 * A real Bosun server on loopback for a test: real database, real HTTP, port chosen by the OS.
 * Fixture routes go through the same app assembly as the product's routes.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type Config, deepMerge, loadConfig } from '../../src/config/load.ts';
import type { RouteRegistrar } from '../../src/http/app.ts';
import { type RunningServer, startServer } from '../../src/http/server.ts';
import { createLogger } from '../../src/logging.ts';
import { freshDatabaseUrl, type TestDialect } from './databases.ts';
import { tempDir } from './temp.ts';

export interface TestServer extends RunningServer {
  config: Config;
  dialect: TestDialect;
}

export interface TestServerOptions {
  /** Configuration values over the test defaults. */
  config?: Record<string, unknown>;
  registrars?: RouteRegistrar[];
  /** Reuse an existing database (e.g. to restart a server on the same data). */
  databaseUrl?: string;
}

export function testConfig(databaseUrl: string, extra: Record<string, unknown> = {}): Config {
  const dir = tempDir('bosun-srv-');
  const base = {
    server: { port: 0, bind: '127.0.0.1', shutdownTimeoutMs: 2000 },
    database: { url: databaseUrl, poolSize: 4 },
    blobs: { dir: join(dir, 'blobs') },
    security: { encryptionKey: randomBytes(32).toString('base64'), keyFile: join(dir, 'secret.key') },
    log: { level: process.env.BOSUN_TEST_LOG ?? 'silent' },
  };
  return loadConfig({ env: {}, overrides: deepMerge(base, extra) });
}

export async function startTestServer(
  dialect: TestDialect,
  options: TestServerOptions = {},
): Promise<TestServer> {
  const url = options.databaseUrl ?? (await freshDatabaseUrl(dialect));
  const config = testConfig(url, options.config);
  const running = await startServer(config, {
    registrars: options.registrars,
    logger: createLogger(config.log.level, process.stderr),
  });
  return { ...running, config, dialect };
}

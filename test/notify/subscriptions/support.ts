/**
 * A Bosun API-only replica (role api) for tests that look at the outbox itself: no delivery
 * worker runs in it, so the rows stay exactly as the emitting transaction wrote them.
 */
import { startServer } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/logging.ts';
import { freshDatabaseUrl, type TestDialect } from '../../support/databases.ts';
import { type TestServer, testConfig } from '../../support/server.ts';

export async function startApiServer(
  dialect: TestDialect,
  config: Record<string, unknown> = {},
): Promise<TestServer> {
  const merged = testConfig(await freshDatabaseUrl(dialect), config);
  const running = await startServer(merged, {
    role: 'api',
    logger: createLogger(merged.log.level, process.stderr),
  });
  return { ...running, config: merged, dialect };
}

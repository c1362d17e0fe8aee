/**
 * Bosun as the benchmarks run it: the real server (default configuration, info logs written
 * as in production but to /dev/null, so that the terminal is not the bottleneck) with the fixture list resource, on the
 * database named by BOSUN_DATABASE_URL, seeded with BOSUN_BENCH_ROWS widgets. Prints its URL.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load.ts';
import { startServer } from '../../src/http/server.ts';
import { bufferedDestination, createLogger } from '../../src/logging.ts';
import { insertWidgets, registerWidgets, widgetRow } from '../../test/support/widgets.ts';

const rows = Number(process.env.BOSUN_BENCH_ROWS ?? '50000');
const dir = mkdtempSync(join(tmpdir(), 'bosun-bench-srv-'));
const config = loadConfig({
  overrides: { server: { port: 0 }, security: { keyFile: join(dir, 'secret.key') } },
});
// The same destination as production stdout, pointed at /dev/null.
const logger = createLogger(config.log.level, bufferedDestination('/dev/null'));
const server = await startServer(config, { registrars: [registerWidgets], logger });
const db = server.context.db;
const existing = await db.kysely
  // biome-ignore lint/suspicious/noExplicitAny: fixture table
  .selectFrom('fixture_widgets' as any)
  .select((eb) => eb.fn.countAll().as('n'))
  .executeTakeFirstOrThrow();
if (Number(existing.n) < rows) {
  const batch = Array.from({ length: rows - Number(existing.n) }, (_, i) =>
    widgetRow('default', {
      name: `widget-${i}`,
      size: i % 1000,
      enabled: i % 3 !== 0,
      labels: { tier: i % 2 ? 'gold' : 'silver' },
      parts: [{ partId: `p${i}`, weight: i % 100 }],
    }),
  );
  await insertWidgets(db, batch);
}
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));

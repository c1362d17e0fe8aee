import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { lcmService } from '../src/http/routes/vnflcm/context.ts';
import { LCM_STORES } from '../src/lcm/store.ts';
import { createLogger } from '../src/logging.ts';
import { NO_METRICS } from '../src/notify/delivery/metrics.ts';
import { createRuntime } from '../src/runtime.ts';
import { DIALECTS, freshDatabaseUrl } from './support/databases.ts';
import { startTestServer, type TestServer, testConfig } from './support/server.ts';

const logger = createLogger('silent');
const started = { deliveryMetrics: NO_METRICS, linkBase: 'http://127.0.0.1:9' };

for (const dialect of DIALECTS) {
  describe(`runtime on ${dialect}`, () => {
    test('builds the services on a migrated database; stop drains the workers and closes it, once', async () => {
      const config = testConfig(await freshDatabaseUrl(dialect));
      const runtime = await createRuntime(config, { role: 'all', logger });
      const { db } = runtime.services;
      const rows = await db.kysely.selectFrom('vnf_packages').select('id').execute();
      assert.deepEqual(rows, []);
      runtime.start(started);
      assert.deepEqual(runtime.running, [
        'janitor',
        'onboarding worker',
        'notification delivery',
        'LCM runner',
        'fault management',
        'drift sync',
      ]);
      const stopping = runtime.stop();
      assert.equal(runtime.stop(), stopping);
      await stopping;
      await assert.rejects(db.kysely.selectFrom('vnf_packages').select('id').execute());
    });

    test('an api runtime leaves the jobs to workers: the onboarding wake-up is a no-op', async () => {
      const config = testConfig(await freshDatabaseUrl(dialect));
      const runtime = await createRuntime(config, { role: 'api', logger });
      try {
        runtime.start(started);
        assert.deepEqual(runtime.running, []);
        runtime.services.onboarding.wake();
      } finally {
        await runtime.stop();
      }
    });

    describe('served', () => {
      let server: TestServer;
      before(async () => {
        server = await startTestServer(dialect);
      });
      after(() => server.close());

      test("the LCM routes of every major use the runtime's one VIM access", () => {
        for (const store of LCM_STORES) assert.equal(lcmService(server.app, store).vims, server.context.vims);
      });
    });
  });
}

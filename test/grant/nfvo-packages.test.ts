/**
 * Packages fetched through the external NFVO, on SQLite and PostgreSQL with the runtime's own
 * onboarding worker and a real NFVO server on loopback: concurrent creates in one project share
 * one fetch; another project needing the same package (same declared checksum) gets it from the
 * blob store, not from the NFVO; both are onboarded the normal way, with the same bytes.
 */
import assert from 'node:assert/strict';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/logging.ts';
import { NO_METRICS } from '../../src/notify/delivery/metrics.ts';
import { packageBlobKey } from '../../src/packages/package-record.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import { sample } from '../http/vnfpkgm/support.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';
import { testConfig } from '../support/server.ts';
import { MAIN_SAMPLE, sampleVnfd } from '../vims/plans.ts';
import { type FakeNfvo, packageAnswer, startFakeNfvo } from './fake-nfvo.ts';

const zip = sample(MAIN_SAMPLE);
const vnfdId = (await sampleVnfd(MAIN_SAMPLE)).vnf.descriptorId;

for (const dialect of DIALECTS) {
  describe(`packages fetched through the external NFVO, across projects (${dialect})`, () => {
    let nfvo: FakeNfvo;
    let runtime: Runtime;
    before(async () => {
      nfvo = await startFakeNfvo((req) => packageAnswer(req, { vnfdId, zip }) ?? { status: 404 });
      const config = testConfig(await freshDatabaseUrl(dialect), {
        worker: { pollIntervalMs: 50 },
        outbound: { allow: ['127.0.0.1'] },
        nfvo: { mode: 'external', external: { apiRoot: nfvo.url } },
      });
      runtime = await createRuntime(config, { role: 'all', logger: createLogger('silent') });
      runtime.start({ deliveryMetrics: NO_METRICS, linkBase: 'http://127.0.0.1:9' });
    });
    after(async () => {
      await runtime.stop();
      await nfvo.close();
    });

    const fetches = () => nfvo.calls().filter((c) => c.path.endsWith('/package_content')).length;
    const packagesOf = (project: string) =>
      runtime.services.db.kysely
        .selectFrom('vnf_packages')
        .select(['id', 'vnfd_id', 'onboarding_state', 'nfvo_checksum'])
        .where('project_id', '=', project)
        .execute();

    test('concurrent needs in one project share one fetch; another project takes the stored copy', async () => {
      const packages = runtime.services.nfvo.packages;
      assert.ok(packages);
      await Promise.all([packages.ensure('tenant-a', vnfdId), packages.ensure('tenant-a', vnfdId)]);
      assert.equal(fetches(), 1);
      const a = await packagesOf('tenant-a');
      assert.equal(a.length, 1);
      assert.equal(a[0].vnfd_id, vnfdId);
      assert.equal(a[0].onboarding_state, 'ONBOARDED');
      assert.match(a[0].nfvo_checksum ?? '', /^sha-256:[0-9a-f]{64}$/);

      await packages.ensure('tenant-b', vnfdId);
      assert.equal(fetches(), 1, 'the second project did not fetch the content again');
      const b = await packagesOf('tenant-b');
      assert.equal(b.length, 1);
      assert.equal(b[0].onboarding_state, 'ONBOARDED');
      assert.notEqual(b[0].id, a[0].id);
      const bytes = await runtime.services.blobs.get(packageBlobKey(b[0].id));
      assert.ok((await buffer(bytes)).equals(zip));

      await packages.ensure('tenant-b', vnfdId);
      assert.equal((await packagesOf('tenant-b')).length, 1, 'an onboarded package is used as it is');
    });
  });
}

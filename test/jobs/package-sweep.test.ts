import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { sweepPackageBlobs } from '../../src/jobs/package-sweep.ts';
import { packageBlobKey } from '../../src/packages/package-record.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

for (const dialect of DIALECTS) {
  describe(`package blob sweep on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect);
    });
    after(() => server.close());

    test('removes blobs no package owns, past the grace period; keeps the owned ones', async () => {
      const { blobs, db } = server.context;
      const created = await http<{ id: string }>(server.url, 'POST', '/vnfpkgm/v1/vnf_packages', {
        body: {},
      });
      const owned = packageBlobKey(created.body.id);
      const orphan = packageBlobKey('5b7c1f0e-0000-4000-8000-000000000001');
      for (const key of [owned, orphan])
        await blobs.put(key, Readable.from([Buffer.from('zip')]), { maxBytes: 100 });
      // Within the grace period nothing goes: an upload may still be writing.
      assert.deepEqual(await sweepPackageBlobs(db, blobs, 60_000), []);
      assert.deepEqual(await sweepPackageBlobs(db, blobs, 0), [orphan]);
      assert.equal(await blobs.stat(orphan), undefined);
      assert.equal((await blobs.stat(owned))?.size, 3);
    });
  });
}

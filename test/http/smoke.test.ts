import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

for (const dialect of DIALECTS) {
  describe(`smoke on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect);
    });
    after(() => server.close());
    test('readyz names the database', async () => {
      const r = await http(server.url, 'GET', '/readyz');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { status: 'ready', database: dialect });
    });
  });
}

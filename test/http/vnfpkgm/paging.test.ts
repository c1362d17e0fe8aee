/** Paging of /vnf_packages the way the Tacker client follows it: only the query string of the next link. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createPkg, type PkgInfo, V1 } from './support.ts';

for (const dialect of DIALECTS) {
  describe(`vnf_packages paging on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, { config: { paging: { pageSizes: { vnf_packages: 2 } } } });
    });
    after(() => server.close());

    test('pages of 2 with a rel=next Link that keeps the filter; all pages together = the filtered set', async () => {
      const tagged: string[] = [];
      for (let i = 0; i < 5; i++)
        tagged.push((await createPkg(server.url, {}, { userDefinedData: { batch: 'p' } })).id);
      await createPkg(server.url, {}, { userDefinedData: { batch: 'other' } });
      const seen: string[] = [];
      let query = `?filter=${encodeURIComponent('(eq,userDefinedData/batch,p)')}`;
      for (let page = 0; page < 10; page++) {
        const res = await http<PkgInfo[]>(server.url, 'GET', `${V1}${query}`);
        assert.equal(res.status, 200);
        assert.ok(res.body.length <= 2);
        seen.push(...res.body.map((p) => p.id));
        const link = res.headers.get('link');
        if (!link) break;
        const next = /<([^>]+)>;\s*rel="next"/.exec(link);
        assert.ok(next);
        query = new URL(next[1]).search;
        assert.match(query, /filter=/);
      }
      assert.deepEqual(seen.sort(), tagged.sort());
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { registerWidgets, type Widget } from '../../support/widgets.ts';

const V = { Version: '2.0.0' };

for (const dialect of DIALECTS) {
  describe(`ETag, If-Match and Location on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, { registrars: [registerWidgets] });
    });
    after(() => server.close());
    const call = (method: string, path: string, options: Parameters<typeof http>[3] = {}) =>
      http<Widget>(server.url, method, path, { ...options, headers: { ...V, ...options.headers } });

    test('201 carries an absolute Location and an ETag that GET repeats', async () => {
      const created = await call('POST', '/fixture/widgets', { body: { name: 'e' } });
      assert.equal(created.status, 201);
      const location = created.headers.get('location')!;
      assert.equal(location, `${server.url}/fixture/widgets/${created.body.id}`);
      const etag = created.headers.get('etag')!;
      assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
      const read = await call('GET', new URL(location).pathname);
      assert.equal(read.headers.get('etag'), etag);
    });

    test('PATCH with the current ETag succeeds and changes the ETag; a stale one → 412 and nothing changes', async () => {
      const created = await call('POST', '/fixture/widgets', { body: { name: 'f', size: 1 } });
      const path = `/fixture/widgets/${created.body.id}`;
      const etag1 = created.headers.get('etag')!;
      const ok = await call('PATCH', path, { body: { size: 2 }, headers: { 'If-Match': etag1 } });
      assert.equal(ok.status, 200);
      const etag2 = ok.headers.get('etag')!;
      assert.notEqual(etag2, etag1);
      const stale = await call('PATCH', path, { body: { size: 3 }, headers: { 'If-Match': etag1 } });
      assert.ok(isProblem(stale, 412));
      assert.equal((await call('GET', path)).body.size, 2, 'a refused PATCH changes nothing');
      const star = await call('PATCH', path, { body: { size: 4 }, headers: { 'If-Match': '*' } });
      assert.equal(star.status, 200);
      const list = await call('PATCH', path, {
        body: { size: 5 },
        headers: { 'If-Match': `"nope", ${star.headers.get('etag')}` },
      });
      assert.equal(list.status, 200);
    });

    test('publicUrl, when configured, is the base of Location', async () => {
      const other = await startTestServer(dialect, {
        registrars: [registerWidgets],
        config: { server: { publicUrl: 'https://bosun.example.net/' } },
      });
      try {
        const r = await http<Widget>(other.url, 'POST', '/fixture/widgets', {
          headers: V,
          body: { name: 'g' },
        });
        assert.equal(r.headers.get('location'), `https://bosun.example.net/fixture/widgets/${r.body.id}`);
      } finally {
        await other.close();
      }
    });
  });
}

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { registerWidgets, type Widget } from '../../support/widgets.ts';
import { addClient, bearer, tokenOf } from './oauth2-support.ts';

for (const dialect of DIALECTS) {
  describe(`project isolation on ${dialect}`, () => {
    let server: TestServer;
    let tokenA: string;
    let tokenB: string;
    let tokenAdmin: string;
    let readOnlyA: string;
    before(async () => {
      server = await startTestServer(dialect, {
        registrars: [registerWidgets],
        config: { auth: { mode: 'oauth2' }, paging: { pageSizes: { fixture_widgets: 2 } } },
      });
      tokenA = await tokenOf(server, await addClient(server, ['vnflcm:v2:all'], 'tenant-a'));
      tokenB = await tokenOf(server, await addClient(server, ['vnflcm:v2:all'], 'tenant-b'));
      readOnlyA = await tokenOf(server, await addClient(server, ['vnflcm:v2:readonly'], 'tenant-a'));
      tokenAdmin = await tokenOf(server, await addClient(server, ['bosun:admin'], 'ops'));
    });
    after(() => server.close());
    const as = (token: string, method: string, path: string, body?: object) =>
      http<Widget & Widget[]>(server.url, method, path, {
        headers: { ...bearer(token), Version: '2.0.0' },
        body,
      });

    test("a caller sees and touches only its project's resources; admin sees all", async () => {
      const a = (await as(tokenA, 'POST', '/fixture/widgets', { name: 'a-1' })).body;
      const b = (await as(tokenB, 'POST', '/fixture/widgets', { name: 'b-1' })).body;
      assert.deepEqual(
        (await as(tokenA, 'GET', '/fixture/widgets')).body.map((w) => w.name),
        ['a-1'],
      );
      assert.deepEqual(
        (await as(tokenB, 'GET', '/fixture/widgets')).body.map((w) => w.name),
        ['b-1'],
      );
      const all = (await as(tokenAdmin, 'GET', '/fixture/widgets')).body.map((w) => w.name).sort();
      assert.deepEqual(all, ['a-1', 'b-1']);
      // Foreign resources answer 404, as if they did not exist, and are left untouched.
      assert.ok(isProblem(await as(tokenB, 'GET', `/fixture/widgets/${a.id}`), 404));
      assert.ok(isProblem(await as(tokenB, 'PATCH', `/fixture/widgets/${a.id}`, { name: 'stolen' }), 404));
      assert.ok(isProblem(await as(tokenB, 'DELETE', `/fixture/widgets/${a.id}`), 404));
      assert.equal((await as(tokenA, 'GET', `/fixture/widgets/${a.id}`)).body.name, 'a-1');
      assert.equal((await as(tokenAdmin, 'GET', `/fixture/widgets/${b.id}`)).status, 200);
    });

    test('a filter cannot reach across projects, nor can a paging marker', async () => {
      const r = await as(tokenB, 'GET', `/fixture/widgets?filter=${encodeURIComponent('(eq,name,a-1)')}`);
      assert.deepEqual(r.body, []);
      for (const name of ['a-2', 'a-3']) await as(tokenA, 'POST', '/fixture/widgets', { name });
      const page = await as(tokenA, 'GET', '/fixture/widgets');
      const link = page.headers.get('link')!;
      const next = new URL(link.slice(1, link.indexOf('>')));
      assert.equal((await as(tokenA, 'GET', next.pathname + next.search)).status, 200);
      const foreign = await as(tokenB, 'GET', next.pathname + next.search);
      assert.ok(isProblem(foreign, 400));
      assert.match((foreign.body as unknown as { detail: string }).detail, /another filter or project/);
    });

    test('readonly scope reads but cannot write (403)', async () => {
      assert.equal((await as(readOnlyA, 'GET', '/fixture/widgets')).status, 200);
      const denied = await as(readOnlyA, 'POST', '/fixture/widgets', { name: 'nope' });
      assert.ok(isProblem(denied, 403));
      assert.match(denied.headers.get('www-authenticate')!, /insufficient_scope/);
    });
  });
}

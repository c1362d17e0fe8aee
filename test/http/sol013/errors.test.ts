import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { registerWidgets } from '../../support/widgets.ts';

const V = { Version: '2.0.0' };

for (const dialect of DIALECTS) {
  describe(`ProblemDetails and content negotiation on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, {
        registrars: [registerWidgets],
        config: { server: { bodyLimit: 4096 } },
      });
    });
    after(() => server.close());
    const call = (method: string, path: string, options: Parameters<typeof http>[3] = {}) =>
      http(server.url, method, path, { ...options, headers: { ...V, ...options.headers } });
    const stillServing = async () => assert.equal((await call('GET', '/fixture/widgets')).status, 200);

    test('unknown path → 404 ProblemDetails', async () => {
      const r = await call('GET', '/no/such/thing');
      assert.ok(isProblem(r, 404));
      assert.equal((r.body as { title: string }).title, 'Not Found');
    });

    test('known path, other method → 405 with Allow', async () => {
      const r = await call('PUT', '/fixture/widgets');
      assert.ok(isProblem(r, 405));
      assert.equal(r.headers.get('allow'), 'GET, HEAD, POST');
      const one = await call('POST', '/fixture/widgets/123');
      assert.ok(isProblem(one, 405));
      assert.equal(one.headers.get('allow'), 'GET, HEAD, PATCH, DELETE');
    });

    test('malformed JSON → 400 and nothing stored', async () => {
      const r = await call('POST', '/fixture/widgets', {
        body: '{"name": "a",',
        headers: { 'content-type': 'application/json' },
      });
      assert.ok(isProblem(r, 400));
      assert.match((r.body as { detail: string }).detail, /Malformed request body/);
      const list = await call('GET', '/fixture/widgets');
      assert.deepEqual(list.body, []);
    });

    test('schema violations → 400 naming the field', async () => {
      const missing = await call('POST', '/fixture/widgets', { body: { size: 1 } });
      assert.ok(isProblem(missing, 400));
      assert.match((missing.body as { detail: string }).detail, /missing required property 'name'/);
      const wrongType = await call('POST', '/fixture/widgets', { body: { name: 'x', size: 'big' } });
      assert.ok(isProblem(wrongType, 400));
      assert.match((wrongType.body as { detail: string }).detail, /body\.size/);
      const empty = await call('POST', '/fixture/widgets', {
        body: '',
        headers: { 'content-type': 'application/json' },
      });
      assert.ok(isProblem(empty, 400));
      await stillServing();
    });

    test('wrong or missing Content-Type on a body → 415', async () => {
      const xml = await call('POST', '/fixture/widgets', {
        body: '<a/>',
        headers: { 'content-type': 'application/xml' },
      });
      assert.ok(isProblem(xml, 415));
      assert.match((xml.body as { detail: string }).detail, /application\/xml.*application\/json/);
      const none = await fetch(`${server.url}/fixture/widgets`, {
        method: 'POST',
        headers: { ...V },
        body: new Blob([Buffer.from('{"name":"x"}')]),
      });
      assert.equal(none.status, 415);
      assert.equal(none.headers.get('content-type'), 'application/problem+json; charset=utf-8');
      const mergeOnPost = await call('POST', '/fixture/widgets', {
        body: '{"name":"x"}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.ok(isProblem(mergeOnPost, 415));
    });

    test('PATCH accepts merge-patch+json and plain JSON', async () => {
      const created = await call('POST', '/fixture/widgets', { body: { name: 'p' } });
      const id = (created.body as { id: string }).id;
      const a = await call('PATCH', `/fixture/widgets/${id}`, {
        body: '{"size":5}',
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      assert.equal(a.status, 200);
      const b = await call('PATCH', `/fixture/widgets/${id}`, { body: { size: 6 } });
      assert.equal(b.status, 200);
      assert.equal((b.body as { size: number }).size, 6);
    });

    test('request values are taken as sent: wrong types → 400, another charset → 415, too deep → 400', async () => {
      for (const body of [{ name: 5 }, { name: 'x', size: '3' }, { name: true }]) {
        const r = await call('POST', '/fixture/widgets', { body });
        assert.ok(isProblem(r, 400), JSON.stringify(body));
        assert.match((r.body as { detail: string }).detail, /body\.(name|size): must be (string|integer)/);
      }
      const utf16 = await call('POST', '/fixture/widgets', {
        body: '{"name":"x"}',
        headers: { 'content-type': 'application/json; charset=utf-16' },
      });
      assert.ok(isProblem(utf16, 415));
      assert.match(
        (utf16.body as { detail: string }).detail,
        /Charset 'utf-16' is not supported: send the body as UTF-8/,
      );
      const utf8 = await call('POST', '/fixture/widgets', {
        body: '{"name":"x"}',
        headers: { 'content-type': 'application/json; charset="UTF-8"' },
      });
      assert.equal(utf8.status, 201);
      const nested = (depth: number) =>
        `{"name":"deep","labels":${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}}`;
      for (const depth of [65, 600]) {
        const deep = await call('POST', '/fixture/widgets', {
          body: nested(depth),
          headers: { 'content-type': 'application/json' },
        });
        assert.ok(isProblem(deep, 400), `depth ${depth}`);
        assert.match(
          (deep.body as { detail: string }).detail,
          /nests objects and arrays deeper than 64 levels/,
        );
      }
      // Brackets inside strings do not count; 64 levels are accepted.
      const brackets = await call('POST', '/fixture/widgets', { body: { name: '[[[[{{{{'.repeat(8) } });
      assert.equal(brackets.status, 201);
      assert.equal(
        (
          await call('POST', '/fixture/widgets', {
            body: nested(64),
            headers: { 'content-type': 'application/json' },
          })
        ).status,
        201,
      );
      await stillServing();
    });

    test('oversized body → 413 and the server keeps serving', async () => {
      const r = await call('POST', '/fixture/widgets', {
        body: { name: 'x', labels: { pad: 'x'.repeat(10000) } },
      });
      assert.ok(isProblem(r, 413));
      await stillServing();
    });

    test('Accept that admits no produced type → 406; odd but compatible Accepts work', async () => {
      const r = await call('GET', '/fixture/widgets', { headers: { Accept: 'application/xml' } });
      assert.ok(isProblem(r, 406));
      // q=0 means "not acceptable", also through a wildcard or a more specific range.
      for (const accept of ['*/*;q=0', 'application/json;q=0, */*', 'application/*;q=0']) {
        assert.ok(
          isProblem(await call('GET', '/fixture/widgets', { headers: { Accept: accept } }), 406),
          accept,
        );
      }
      for (const accept of [
        '*/*',
        'application/*',
        'application/json;q=0.9, text/html',
        'text/html, */*;q=0.1',
        'application/json;q=abc',
        'application/json;q=2, text/html;q=0.5, */*;q=0.1',
      ]) {
        assert.equal(
          (await call('GET', '/fixture/widgets', { headers: { Accept: accept } })).status,
          200,
          accept,
        );
      }
    });

    test('Tacker client quirks: X-Auth-Token ignored with auth off; JSON Content-Type on bodiless GET and DELETE', async () => {
      const created = await call('POST', '/fixture/widgets', { body: { name: 'q' } });
      const id = (created.body as { id: string }).id;
      const headers = { 'X-Auth-Token': 'notused', 'Content-Type': 'application/json' };
      assert.equal((await call('GET', `/fixture/widgets/${id}`, { headers })).status, 200);
      const del = await call('DELETE', `/fixture/widgets/${id}`, {
        headers: { ...headers, 'Content-Length': '0' },
      });
      assert.equal(del.status, 204);
    });

    test('unknown and repeated query parameters → 400 naming them', async () => {
      const unknown = await call('GET', '/fixture/widgets?filtr=(eq,name,a)');
      assert.ok(isProblem(unknown, 400));
      assert.match((unknown.body as { detail: string }).detail, /'filtr' is not supported.*filter/);
      const repeated = await call('GET', '/fixture/widgets?filter=(eq,name,a)&filter=(eq,name,b)');
      assert.ok(isProblem(repeated, 400));
      assert.match((repeated.body as { detail: string }).detail, /'filter' is given more than once/);
      const long = await call('GET', `/fixture/widgets?filter=(eq,name,${'a'.repeat(9000)})`);
      assert.ok(isProblem(long, 414));
      assert.match((long.body as { detail: string }).detail, /query string is longer than 8192 characters/);
    });

    test('an unexpected exception → 500 ProblemDetails without internals, with the request id', async () => {
      const r = await call('GET', '/fixture/crash', { headers: { 'X-Request-Id': 'crash-test-1' } });
      assert.ok(isProblem(r, 500));
      assert.doesNotMatch(r.text, /secret internal detail|db\.ts|at /);
      assert.match((r.body as { detail: string }).detail, /crash-test-1/);
      await stillServing();
    });
  });
}

describe('every error status renders as ProblemDetails', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { registrars: [registerWidgets] });
  });
  after(() => server.close());

  test('400 401 403 404 405 406 409 412 413 415 416 422 500 503', async () => {
    for (const code of [400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 416, 422, 500, 503]) {
      const r = await http(server.url, 'GET', `/fixture/status/${code}`, { headers: V });
      assert.ok(isProblem(r, code), `${code}: ${r.text}`);
      assert.equal(r.headers.get('version'), '2.0.0');
      if (code === 503) assert.ok(r.headers.get('retry-after'), '503 carries Retry-After');
    }
  });

  test('media types chosen by Accept; 406 when none fits', async () => {
    const text = await http(server.url, 'GET', '/fixture/document', {
      headers: { ...V, Accept: 'text/plain' },
    });
    assert.equal(text.headers.get('content-type'), 'text/plain');
    const zip = await http(server.url, 'GET', '/fixture/document', {
      headers: { ...V, Accept: 'application/zip' },
    });
    assert.equal(zip.headers.get('content-type'), 'application/zip');
    const both = await http(server.url, 'GET', '/fixture/document', {
      headers: { ...V, Accept: 'text/plain;q=0.5, application/zip' },
    });
    assert.equal(both.headers.get('content-type'), 'application/zip');
    const json = await http(server.url, 'GET', '/fixture/document', {
      headers: { ...V, Accept: 'application/json' },
    });
    assert.ok(isProblem(json, 406));
  });

  test('a raw zip upload streams in; JSON on a zip route → 415', async () => {
    const body = Buffer.alloc(300_000, 7);
    const ok = await http(server.url, 'PUT', '/fixture/upload', {
      headers: { ...V, 'Content-Type': 'application/zip', Accept: 'application/zip' },
      body,
    });
    assert.equal(ok.status, 202);
    assert.deepEqual(ok.body, { size: body.length });
    const wrong = await http(server.url, 'PUT', '/fixture/upload', { headers: V, body: { a: 1 } });
    assert.ok(isProblem(wrong, 415));
  });
});

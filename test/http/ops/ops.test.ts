import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

for (const dialect of DIALECTS) {
  describe(`operations endpoints on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect);
    });
    after(() => server.close());

    test('X-Request-Id: echoed when sane, generated otherwise', async () => {
      const given = await http(server.url, 'GET', '/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
      assert.equal(given.headers.get('x-request-id'), 'abc-123');
      const insane = await http(server.url, 'GET', '/healthz', {
        headers: { 'X-Request-Id': 'bad id with spaces' },
      });
      assert.match(insane.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
      const errorToo = await http(server.url, 'GET', '/nothing-here', {
        headers: { 'X-Request-Id': 'err-1' },
      });
      assert.equal(errorToo.headers.get('x-request-id'), 'err-1');
    });

    test('/healthz and /readyz', async () => {
      assert.deepEqual((await http(server.url, 'GET', '/healthz')).body, { status: 'ok' });
      assert.deepEqual((await http(server.url, 'GET', '/readyz')).body, {
        status: 'ready',
        database: dialect,
      });
    });

    test('/metrics counts requests per route pattern and status', async () => {
      await http(server.url, 'GET', '/vnflcm/v2/api_versions', { headers: { Version: '2.0.0' } });
      await http(server.url, 'GET', '/vnflcm/v2/api_versions', { headers: { Version: 'bad' } });
      const r = await http(server.url, 'GET', '/metrics');
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type')!, /^text\/plain/);
      assert.match(
        r.text,
        /bosun_http_request_duration_seconds_count\{method="GET",route="\/vnflcm\/v2\/api_versions",status="200"\} 1/,
      );
      assert.match(
        r.text,
        /bosun_http_request_duration_seconds_count\{method="GET",route="\/vnflcm\/v2\/api_versions",status="400"\} 1/,
      );
      assert.match(
        r.text,
        /bosun_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/vnflcm\/v2\/api_versions"/,
      );
      assert.match(r.text, /bosun_process_resident_memory_bytes/);
    });

    test('graceful shutdown: an in-flight request completes, then new connections are refused', async () => {
      let started!: () => void;
      const handlerStarted = new Promise<void>((r) => {
        started = r;
      });
      const s = await startTestServer(dialect, {
        registrars: [
          (app) => {
            app.get('/fixture/slow', { config: { sol013: { access: 'public' } } }, async () => {
              started();
              await new Promise((r) => setTimeout(r, 300));
              return { done: true };
            });
          },
        ],
      });
      const inFlight = http(s.url, 'GET', '/fixture/slow');
      // Close only once the request is being handled (a fixed delay races on a loaded machine).
      await handlerStarted;
      const closing = s.close();
      const ready = await http(s.url, 'GET', '/readyz').catch((e: Error) => e);
      // Either the listener is already closed or readiness reports draining.
      if (!(ready instanceof Error)) assert.ok(isProblem(ready, 503));
      const done = await inFlight;
      assert.equal(done.status, 200);
      assert.deepEqual(done.body, { done: true });
      await closing;
      await assert.rejects(fetch(`${s.url}/healthz`));
    });

    test('a request arriving while the server closes gets a 503 ProblemDetails', async () => {
      // The state close() puts the server in before its listener stops, held open here.
      server.context.readiness.closing = true;
      try {
        const r = await http(server.url, 'GET', '/vnflcm/v2/api_versions', { headers: { Version: '2.0.0' } });
        assert.ok(isProblem(r, 503), r.text);
        assert.match(
          (r.body as { detail: string }).detail,
          /^Bosun is shutting down: send the request again/,
        );
        assert.equal(r.headers.get('retry-after'), '5');
        assert.equal(r.headers.get('connection'), 'close');
      } finally {
        server.context.readiness.closing = false;
      }
      assert.equal((await http(server.url, 'GET', '/healthz')).status, 200);
    });

    test('while the server drains (server.drainMs), /readyz is 503 and requests are still served', async () => {
      server.context.readiness.draining = true;
      try {
        const ready = await http(server.url, 'GET', '/readyz');
        assert.ok(isProblem(ready, 503), ready.text);
        assert.equal(ready.headers.get('retry-after'), '5');
        const r = await http(server.url, 'GET', '/vnflcm/v2/api_versions', { headers: { Version: '2.0.0' } });
        assert.equal(r.status, 200, r.text);
      } finally {
        server.context.readiness.draining = false;
      }
      assert.equal((await http(server.url, 'GET', '/readyz')).status, 200);
    });
  });
}

describe('OpenAPI document', () => {
  test('/api-docs describes the routes from their schemas', async () => {
    const server = await startTestServer('sqlite');
    try {
      const r = await http<{ openapi: string; paths: Record<string, Record<string, { responses: object }>> }>(
        server.url,
        'GET',
        '/api-docs',
      );
      assert.equal(r.status, 200);
      assert.match(r.body.openapi, /^3\./);
      const versions = r.body.paths['/vnflcm/v2/api_versions'];
      assert.ok(versions?.get, 'api_versions is documented');
      assert.ok(JSON.stringify(versions.get.responses).includes('apiVersions'));
      assert.equal(r.body.paths['/api-docs'], undefined);
    } finally {
      await server.close();
    }
  });
});

/**
 * What goes on the wire before and around routing, read from a raw socket: ProblemDetails for
 * requests refused by Node's HTTP parser and by the router, 405/404 before any check of the
 * request's Accept, query or body, and response header names in canonical case.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { http, type RawResult, rawHeader, rawHttp } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { registerWidgets } from '../../support/widgets.ts';

describe('the HTTP wire before and around routing', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', {
      registrars: [registerWidgets],
      config: { server: { maxQueryLength: 512 } },
    });
  });
  after(() => server.close());

  /** One request: a request line, header lines and an optional body; the connection closes after it. */
  const send = (line: string, headers: string[] = [], body = '') =>
    rawHttp(
      server.url,
      [line, 'Host: localhost', 'Connection: close', ...headers].join('\r\n') + `\r\n\r\n${body}`,
    );
  const problem = (r: RawResult, status: number, detail: RegExp) => {
    assert.equal(r.status, status, r.body);
    assert.equal(rawHeader(r, 'Content-Type'), 'application/problem+json; charset=utf-8');
    const body = JSON.parse(r.body) as { status: number; title: string; detail: string };
    assert.equal(body.status, status);
    assert.ok(body.title);
    assert.match(body.detail, detail);
  };

  test('response header names go on the wire in canonical case', async () => {
    const created = await send(
      'POST /fixture/widgets HTTP/1.1',
      ['Version: 2.0.0', 'Content-Type: application/json', 'Content-Length: 14'],
      '{"name":"one"}',
    );
    assert.equal(created.status, 201, created.body);
    const names = created.headers.map(([name]) => name);
    for (const name of ['X-Request-Id', 'Version', 'Location', 'ETag', 'Content-Type', 'Content-Length']) {
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    }
    for (const name of names) assert.match(name, /^([A-Z][a-z]*|ETag|ID)(-[A-Z][a-z]*)*$/, name);
    await send(
      'POST /fixture/widgets HTTP/1.1',
      ['Version: 2.0.0', 'Content-Type: application/json', 'Content-Length: 14'],
      '{"name":"two"}',
    );
    const { config } = server;
    config.paging.pageSizes.fixture_widgets = 1;
    try {
      const page = await send('GET /fixture/widgets HTTP/1.1', ['Version: 2.0.0']);
      assert.match(rawHeader(page, 'Link') ?? '', /rel="next"/);
    } finally {
      delete config.paging.pageSizes.fixture_widgets;
    }
    const refused = await send('PUT /fixture/widgets HTTP/1.1', ['Version: 2.0.0']);
    assert.equal(rawHeader(refused, 'Allow'), 'GET, HEAD, POST');
  });

  test('a method the resource does not serve is 405 with Allow, whatever Accept, query or body say', async () => {
    const zip = await send(
      'POST /vnfpkgm/v1/vnf_packages/abc/vnfd?x=1 HTTP/1.1',
      ['Accept: application/zip', 'Content-Type: application/xml', 'Content-Length: 4'],
      '<a/>',
    );
    problem(
      zip,
      405,
      /Method POST is not supported on \/vnfpkgm\/v1\/vnf_packages\/abc\/vnfd; allowed: GET, HEAD\./,
    );
    assert.equal(rawHeader(zip, 'Allow'), 'GET, HEAD');
  });

  test('an unknown path is 404 whatever its query string, Accept or body', async () => {
    const query = await send('GET /no/such/thing?x=1&filter=(eq,a,b) HTTP/1.1', ['Accept: text/html']);
    problem(query, 404, /No resource at \/no\/such\/thing\./);
    const body = await send(
      'POST /no/such/thing HTTP/1.1',
      ['Content-Type: text/csv', 'Content-Length: 3'],
      'a,b',
    );
    problem(body, 404, /No resource at \/no\/such\/thing\./);
  });

  const refusals: { name: string; request: () => Promise<RawResult>; status: number; detail: RegExp }[] = [
    {
      name: 'bad percent-encoding in the path',
      request: () => send('GET /fixture/widgets/%zz HTTP/1.1', ['Version: 2.0.0']),
      status: 400,
      detail: /path '\/fixture\/widgets\/%zz' is not valid: a '%' must start a percent-encoded/,
    },
    {
      name: 'a path parameter longer than any id',
      request: () => send(`GET /fixture/widgets/${'a'.repeat(1100)} HTTP/1.1`, ['Version: 2.0.0']),
      status: 414,
      detail: /longer than 1024 characters; no resource has such an id/,
    },
    {
      name: 'a query string over server.maxQueryLength',
      request: () => send(`GET /fixture/widgets?filter=${'a'.repeat(600)} HTTP/1.1`, ['Version: 2.0.0']),
      status: 414,
      detail: /query string is longer than 512 characters/,
    },
    {
      name: 'headers larger than the parser takes',
      request: () => send('GET /fixture/widgets HTTP/1.1', [`X-Big: ${'a'.repeat(20000)}`]),
      status: 431,
      detail: /request line and headers are larger than \d+ bytes/,
    },
    {
      name: 'a request line larger than the parser takes (a long query)',
      request: () => send(`GET /fixture/widgets?filter=${'a'.repeat(20000)} HTTP/1.1`),
      status: 431,
      detail: /a long query string counts too/,
    },
    {
      name: 'a malformed header line',
      request: () => send('GET /fixture/widgets HTTP/1.1', ['Version 2.0.0']),
      status: 400,
      detail: /header line is malformed/,
    },
    {
      name: 'a space in the path',
      request: () => send('GET /fixture/my widgets HTTP/1.1'),
      status: 400,
      detail: /request line is malformed: it must be 'METHOD \/path HTTP\/1\.1'/,
    },
    {
      name: 'both Content-Length and Transfer-Encoding (request smuggling)',
      request: () =>
        send(
          'POST /fixture/widgets HTTP/1.1',
          [
            'Version: 2.0.0',
            'Content-Type: application/json',
            'Content-Length: 5',
            'Transfer-Encoding: chunked',
          ],
          '0\r\n\r\n',
        ),
      status: 400,
      detail: /body framing is invalid/,
    },
    {
      name: 'an invalid method',
      request: () => send('BR=W /fixture/widgets HTTP/1.1'),
      status: 400,
      detail: /not a valid HTTP method/,
    },
    {
      name: 'a malformed chunked body',
      request: () =>
        send(
          'POST /fixture/widgets HTTP/1.1',
          ['Version: 2.0.0', 'Transfer-Encoding: chunked', 'Content-Type: application/json'],
          'zz\r\n{}\r\n0\r\n\r\n',
        ),
      status: 400,
      detail: /chunked request body is malformed/,
    },
  ];
  for (const refusal of refusals) {
    test(`${refusal.name} → ${refusal.status} ProblemDetails`, async () => {
      const r = await refusal.request();
      problem(r, refusal.status, refusal.detail);
      assert.ok(rawHeader(r, 'X-Request-Id'));
      assert.equal(
        (await http(server.url, 'GET', '/fixture/widgets', { headers: { Version: '2.0.0' } })).status,
        200,
      );
    });
  }
});

import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ApiClient } from '../../src/cli/api-client/client.ts';
import { resolveConnection } from '../../src/cli/api-client/connection.ts';
import { nextLink } from '../../src/cli/api-client/links.ts';
import { CliError } from '../../src/cli/output.ts';
import type { RouteRegistrar } from '../../src/http/app.ts';
import { ApiError } from '../../src/sol/problem.ts';
import { addClient } from '../http/auth/oauth2-support.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

/** GET /fixture/pages?page=n: three pages of two items, linked by absolute next links. */
const fixtures: RouteRegistrar = (app) => {
  const querystring = { type: 'object', properties: { page: { type: 'string' }, x: { type: 'string' } } };
  app.get('/fixture/pages', { schema: { querystring } }, async (req, reply) => {
    const page = Number((req.query as { page?: string }).page ?? 0);
    if (page < 2) {
      reply.header('Link', `<http://elsewhere.example/fixture/pages?page=${page + 1}&x=y>; rel="next"`);
    }
    return [`${page}a`, `${page}b`];
  });
  app.get('/fixture/missing', async () => {
    throw new ApiError(404, 'No package with id x.');
  });
};

describe('nextLink', () => {
  test('finds rel="next" among several links and keeps path and query', () => {
    const header = '<http://h/a?b=1>; rel="prev", <http://h/list?marker=m%2B1&z=2>; rel="next"';
    assert.equal(nextLink(header), '/list?marker=m%2B1&z=2');
  });
  test('nothing when there is no next link', () => {
    assert.equal(nextLink(null), undefined);
    assert.equal(nextLink('<http://h/a>; rel="self"'), undefined);
  });
});

describe('resolveConnection', () => {
  test('flags over environment over the configuration, each naming where its URL came from', async () => {
    const env = { BOSUN_URL: 'http://env:1/', BOSUN_TOKEN: 't', BOSUN_SERVER_PORT: '7777' };
    assert.deepEqual(await resolveConnection({ url: 'http://flag:2', token: 'f' }, env), {
      url: 'http://flag:2',
      source: '--url',
      token: 'f',
      client: undefined,
    });
    assert.deepEqual(await resolveConnection({}, env), {
      url: 'http://env:1',
      source: 'BOSUN_URL',
      token: 't',
      client: undefined,
    });
    // The client's own BOSUN_* variables do not upset the configuration loader.
    const fromConfig = await resolveConnection(
      {},
      { BOSUN_SERVER_PORT: '7777', BOSUN_CLIENT_ID: 'c', BOSUN_CLIENT_SECRET: 's' },
    );
    assert.deepEqual(fromConfig, {
      url: 'http://127.0.0.1:7777',
      source: 'server.bind and server.port of the configuration (defaults and BOSUN_* environment)',
      token: undefined,
      client: { id: 'c', secret: 's' },
    });
  });

  test("bosun.yaml's server: publicUrl, else where it listens (a wildcard address on loopback)", async () => {
    const dir = tempDir('bosun-conn-');
    const file = (name: string, yaml: string) => {
      writeFileSync(join(dir, name), yaml);
      return join(dir, name);
    };
    const cases: [string, string][] = [
      ['server:\n  publicUrl: https://vnfm.example.com/bosun/\n', 'https://vnfm.example.com/bosun'],
      ['server:\n  bind: 10.0.0.5\n  port: 9000\nauth:\n  mode: oauth2\n', 'http://10.0.0.5:9000'],
      [
        'server:\n  bind: 0.0.0.0\n  port: 9001\n  allowUnauthenticatedNetwork: true\n',
        'http://127.0.0.1:9001',
      ],
      ['server:\n  bind: "::"\n  port: 9002\n  allowUnauthenticatedNetwork: true\n', 'http://[::1]:9002'],
      ['server:\n  bind: "::1"\n', 'http://[::1]:9890'],
    ];
    for (const [i, [yaml, url]] of cases.entries()) {
      const config = file(`b${i}.yaml`, yaml);
      const conn = await resolveConnection({ config }, {});
      assert.equal(conn.url, url, yaml);
      assert.match(conn.source, new RegExp(`^server\\.\\w+.* of the configuration \\(${config} and`));
    }
  });
});

describe('ApiClient against a server', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { registrars: [fixtures] });
  });
  after(() => server.close());

  test('follows next links to the end, on its own base URL', async () => {
    const api = ApiClient.from({ url: server.url }, {});
    assert.deepEqual(await api.list('/fixture/pages'), ['0a', '0b', '1a', '1b', '2a', '2b']);
  });

  test('a ProblemDetails answer becomes "<status> <title>: <detail>"', async () => {
    const api = ApiClient.from({ url: server.url }, {});
    await assert.rejects(api.request('GET', '/fixture/missing'), (err: Error) => {
      assert.ok(err instanceof CliError);
      assert.equal(err.message, '404 Not Found: No package with id x.');
      return true;
    });
  });
});

describe('ApiClient in oauth2 mode', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { config: { auth: { mode: 'oauth2' } } });
  });
  after(() => server.close());

  test('client credentials get a token that the API accepts', async () => {
    const client = await addClient(server, ['vnflcm:v2:readonly'], 'p1', 'cli-robot');
    const api = ApiClient.from(
      { url: server.url, clientId: client.clientId, clientSecret: client.secret },
      {},
    );
    const res = await api.request('GET', '/vnflcm/v2/api_versions', { headers: { version: '2.0.0' } });
    assert.equal(res.status, 200);
  });

  test('no token: the 401 ProblemDetails; a wrong secret: the OAuth error description', async () => {
    const anonymous = ApiClient.from({ url: server.url }, {});
    await assert.rejects(
      anonymous.request('GET', '/vnflcm/v2/api_versions'),
      /^CliError: 401 Unauthorized: /,
    );
    const wrong = ApiClient.from({ url: server.url, clientId: 'nobody', clientSecret: 'x' }, {});
    await assert.rejects(
      wrong.request('GET', '/vnflcm/v2/api_versions'),
      /^CliError: 401 Unauthorized: Client authentication failed/,
    );
  });
});

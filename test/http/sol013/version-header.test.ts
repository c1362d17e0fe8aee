import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startServer } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/logging.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer, testConfig } from '../../support/server.ts';
import { registerWidgets } from '../../support/widgets.ts';

for (const dialect of DIALECTS) {
  describe(`Version header and api_versions on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, { registrars: [registerWidgets] });
    });
    after(() => server.close());
    const get = (path: string, headers: Record<string, string> = {}) =>
      http(server.url, 'GET', path, { headers });

    test('/vnflcm/api_versions lists both majors and answers Version 2.0.0', async () => {
      const r = await get('/vnflcm/api_versions', { Version: '2.0.0' });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('version'), '2.0.0');
      assert.deepEqual(r.body, {
        uriPrefix: '/vnflcm',
        apiVersions: [
          { version: '1.3.0', isDeprecated: false },
          { version: '2.0.0', isDeprecated: false },
        ],
      });
    });

    test('every API root and major has api_versions from the registry', async () => {
      const expected: Record<string, string[]> = {
        '/vnfpkgm/v1': ['1.3.0'],
        '/vnfpkgm/v2': ['2.1.0'],
        '/vnflcm/v1': ['1.3.0'],
        '/vnflcm/v2': ['2.0.0'],
        '/vnffm/v1': ['1.3.0'],
        '/vnfpm/v2': ['2.1.0'],
      };
      for (const [prefix, versions] of Object.entries(expected)) {
        const r = await get(`${prefix}/api_versions`);
        assert.equal(r.status, 200, prefix);
        assert.deepEqual(r.body, {
          uriPrefix: prefix,
          apiVersions: versions.map((version) => ({ version, isDeprecated: false })),
        });
        assert.equal(r.headers.get('version'), versions.at(-1));
      }
      const pkgm = await get('/vnfpkgm/api_versions');
      assert.deepEqual(
        (pkgm.body as { apiVersions: { version: string }[] }).apiVersions.map((v) => v.version),
        ['1.3.0', '2.1.0'],
      );
    });

    test('the Tacker client sends 2.0.0 to the v1 api_versions: accepted', async () => {
      const r = await get('/vnflcm/v1/api_versions', { Version: '2.0.0' });
      assert.equal(r.status, 200);
    });

    test('a malformed Version on api_versions is still a 400', async () => {
      assert.ok(isProblem(await get('/vnflcm/api_versions', { Version: 'two' }), 400));
    });

    test('required on a v3.x API: missing → 400 naming the supported versions', async () => {
      const r = await get('/fixture/widgets');
      assert.ok(isProblem(r, 400));
      assert.match((r.body as { detail: string }).detail, /'Version' header is missing.*2\.0\.0/);
      assert.equal(r.headers.get('version'), '2.0.0', 'errors of a versioned API carry Version too');
    });

    test('malformed → 400, leading zeros and partial versions included', async () => {
      for (const bad of ['2.0', '02.0.0', '2.0.0.1', 'v2.0.0', '2.0.0-beta', '']) {
        const r = await get('/fixture/widgets', { Version: bad });
        assert.ok(isProblem(r, 400), `Version '${bad}' → ${r.status}`);
      }
    });

    test('well-formed but unsupported → 406', async () => {
      const r = await get('/fixture/widgets', { Version: '3.0.0' });
      assert.ok(isProblem(r, 406));
      assert.match((r.body as { detail: string }).detail, /3\.0\.0 is not supported.*2\.0\.0/);
    });

    test('a -impl: suffix is tolerated and the response carries the plain version', async () => {
      const r = await get('/fixture/widgets', { Version: '2.0.0-impl:bosun-test.1' });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('version'), '2.0.0');
    });
  });
}

describe('api_versions and planned resources: only what is served', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  test('a planned resource answers 404 saying it is not implemented yet and what the API serves', async () => {
    for (const [path, what, prefix] of [
      ['/vnfpm/v2/pm_jobs', /performance management jobs/, '/vnfpm/v2'],
      ['/vnfpm/v2/thresholds/t1', /performance management thresholds/, '/vnfpm/v2'],
    ] as const) {
      const r = await http(server.url, 'GET', path, { headers: { Version: '1.3.0' } });
      assert.ok(isProblem(r, 404), path);
      const { detail } = r.body as { detail: string };
      assert.match(detail, new RegExp(`^${path} is not implemented yet: `));
      assert.match(detail, what);
      assert.ok(detail.endsWith(`${prefix} serves api_versions, subscriptions today.`), detail);
    }
    const typo = await http(server.url, 'GET', '/vnfpm/v2/pm_job');
    assert.equal((typo.body as { detail: string }).detail, 'No resource at /vnfpm/v2/pm_job.');
  });

  test('a process that serves no SOL API (worker role) lists no api_versions', async () => {
    const config = testConfig(server.config.database.url, {
      security: { encryptionKey: server.config.security.encryptionKey },
    });
    const worker = await startServer(config, { role: 'worker', logger: createLogger('silent') });
    try {
      for (const path of ['/vnflcm/api_versions', '/vnflcm/v2/api_versions', '/vnfpkgm/v1/api_versions']) {
        assert.ok(
          isProblem(await http(worker.url, 'GET', path, { headers: { Version: '2.0.0' } }), 404),
          path,
        );
      }
      assert.equal((await http(worker.url, 'GET', '/healthz')).status, 200);
    } finally {
      await worker.close();
    }
  });
});

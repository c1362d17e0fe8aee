/**
 * Bosun serving its web console at /ui/: types, caching, precompressed variants, the page for
 * every console path, `/` → /ui/, the Content-Security-Policy, no API route shadowed, and a
 * console that was never built explained instead of a 404. Serving reads no database, so it is
 * checked on SQLite only.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { http, isProblem } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';
import { ensureConsoleBuilt } from './harness.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body is not decoded (fetch would undo the Content-Encoding). */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const SCRIPT = 'console.log("bosun console");'.repeat(40);

/** A console build in miniature: a page, a hashed script with its compressed copies, a stray file. */
function fixtureBuild(): string {
  const dir = tempDir('bosun-ui-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="/ui/assets/app-1a2b3c.js"></script>',
  );
  writeFileSync(join(dir, 'assets/app-1a2b3c.js'), SCRIPT);
  writeFileSync(join(dir, 'assets/app-1a2b3c.js.gz'), gzipSync(SCRIPT));
  writeFileSync(join(dir, 'assets/app-1a2b3c.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, 'assets/notes.unknown'), 'not served');
  return dir;
}

describe('web console serving', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { config: { console: { dir: fixtureBuild() } } });
  });
  after(() => server.close());

  test('/ and /ui redirect to /ui/', async () => {
    for (const path of ['/', '/ui']) {
      const res = await get(server.url, path);
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.location, '/ui/');
    }
  });

  test('/ui/ is the page, never cached without revalidation, under a strict CSP', async () => {
    const res = await get(server.url, '/ui/');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['cache-control'], 'no-cache');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.body.toString(), /app-1a2b3c\.js/);
  });

  test('every other console path gets the page, so a reload or shared link works', async () => {
    for (const path of ['/ui/packages', '/ui/instances/5c1f0c8e-4fd0-4c8e-9d3e-0b7e3b3c9f11', '/ui/a/b/c']) {
      const res = await get(server.url, path);
      assert.equal(res.status, 200, path);
      assert.match(res.body.toString(), /app-1a2b3c\.js/, path);
    }
  });

  test('a hashed asset is cached for good, with its type, and sent precompressed as accepted', async () => {
    const plain = await get(server.url, '/ui/assets/app-1a2b3c.js');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.body.toString(), SCRIPT);

    const gz = await get(server.url, '/ui/assets/app-1a2b3c.js', { 'Accept-Encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers.vary, 'Accept-Encoding');
    assert.equal(gunzipSync(gz.body).toString(), SCRIPT);

    const br = await get(server.url, '/ui/assets/app-1a2b3c.js', { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.body).toString(), SCRIPT);

    const refused = await get(server.url, '/ui/assets/app-1a2b3c.js', { 'Accept-Encoding': 'br;q=0, gzip' });
    assert.equal(refused.headers['content-encoding'], 'gzip');
  });

  test('a matching If-None-Match is answered 304', async () => {
    const first = await get(server.url, '/ui/assets/app-1a2b3c.js');
    const again = await get(server.url, '/ui/assets/app-1a2b3c.js', {
      'If-None-Match': String(first.headers.etag),
    });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
  });

  test('a missing console file is a ProblemDetails 404 saying to reload, not the page', async () => {
    for (const path of [
      '/ui/assets/app-old.js',
      '/ui/favicon.ico',
      '/ui/assets/notes.unknown',
      '/ui/../package.json',
    ]) {
      const res = await http<{ detail: string }>(server.url, 'GET', path);
      assert.ok(isProblem(res, 404), `${path}: ${res.status} ${res.text}`);
    }
    const res = await http<{ detail: string }>(server.url, 'GET', '/ui/assets/app-old.js');
    assert.match(res.body.detail, /reload \/ui\//);
  });

  test('the sign-in settings say how this Bosun signs callers in', async () => {
    const res = await http<Record<string, unknown>>(server.url, 'GET', '/ui/settings.json');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { authMode: 'none', tokenPath: '/oauth2/token', adminScope: 'bosun:admin' });
  });

  test('the APIs answer as before: no API route is shadowed by the console', async () => {
    const versions = await http(server.url, 'GET', '/vnflcm/api_versions');
    assert.equal(versions.status, 200);
    const unknown = await http(server.url, 'GET', '/vnflcm/v2/nothing-here', {
      headers: { Version: '2.0.0' },
    });
    assert.ok(isProblem(unknown, 404));
    assert.equal(unknown.headers.get('content-security-policy'), null);
    const wrongMethod = await http(server.url, 'POST', '/ui/');
    assert.ok(isProblem(wrongMethod, 404) || isProblem(wrongMethod, 405), wrongMethod.text);
  });
});

describe('web console not built', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { config: { console: { dir: tempDir('bosun-ui-none-') } } });
  });
  after(() => server.close());

  test('/ui/ answers 503 saying how to build it, and the APIs still work', async () => {
    for (const path of ['/ui/', '/ui/packages']) {
      const res = await http<{ detail: string }>(server.url, 'GET', path);
      assert.ok(isProblem(res, 503), res.text);
      assert.match(res.body.detail, /npm run build:console/);
    }
    assert.equal((await http(server.url, 'GET', '/vnfpkgm/api_versions')).status, 200);
  });
});

describe('the console build', () => {
  let server: TestServer;
  before(async () => {
    ensureConsoleBuilt();
    server = await startTestServer('sqlite');
  });
  after(() => server.close());

  test('every file the page loads is served with its type and a brotli and gzip copy, and no inline script', async () => {
    const page = (await get(server.url, '/ui/')).body.toString();
    assert.doesNotMatch(page, /<script(?![^>]*\bsrc=)[^>]*>/, 'an inline script would be refused by the CSP');
    const assets = [...page.matchAll(/(?:src|href)="(\/ui\/assets\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(assets.some((a) => a.endsWith('.js')) && assets.some((a) => a.endsWith('.css')), page);
    for (const asset of assets) {
      const br = await get(server.url, asset, { 'Accept-Encoding': 'br' });
      assert.equal(br.status, 200, asset);
      assert.equal(br.headers['content-encoding'], 'br', asset);
      assert.match(
        String(br.headers['content-type']),
        asset.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
      );
      const gz = await get(server.url, asset, { 'Accept-Encoding': 'gzip' });
      assert.equal(gz.headers['content-encoding'], 'gzip', asset);
    }
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateKeyPair, SignJWT } from 'jose';
import { DIALECTS } from '../../support/databases.ts';
import { type HttpResult, http, isProblem, rawHeader, rawHttp } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import {
  addClient,
  bearer,
  type Json,
  mint,
  PROTECTED,
  type TestClient,
  tokenOf,
  whoami,
} from './oauth2-support.ts';

const REQUIRED =
  "Authentication required: send an OAuth 2.0 access token as 'Authorization: Bearer <token>' (or X-Auth-Token).";

/** A 401 with an invalid_token challenge whose detail matches `detail` and never quotes the token. */
function assertInvalidToken(r: HttpResult, detail: RegExp, token?: string) {
  assert.ok(isProblem(r, 401), `expected 401 ProblemDetails, got ${r.status} ${r.text}`);
  const challenge = r.headers.get('www-authenticate') ?? '';
  assert.match(challenge, /^Bearer realm="bosun", error="invalid_token", error_description="[^"]+"$/);
  assert.match((r.body as Json).detail as string, detail);
  if (token) {
    assert.ok(!r.text.includes(token) && !challenge.includes(token), 'the token must not be echoed');
    // Nor any of its parts (header, payload, signature).
    for (const part of token.split('.')) if (part.length > 8) assert.ok(!r.text.includes(part));
  }
}

for (const dialect of DIALECTS) {
  describe(`OAuth 2.0 bearer authentication on ${dialect}`, () => {
    let server: TestServer;
    let lcm: TestClient;
    let pkg: TestClient;
    let admin: TestClient;
    let good: string;
    const get = (path: string, headers: Record<string, string> = {}) =>
      http<Json>(server.url, 'GET', path, { headers });

    before(async () => {
      server = await startTestServer(dialect, { config: { auth: { mode: 'oauth2' } }, registrars: [whoami] });
      lcm = await addClient(server, ['vnflcm:v2:all'], 'p1');
      pkg = await addClient(server, ['vnfpkgm:v1:all'], 'p2');
      admin = await addClient(server, ['bosun:admin'], 'ops');
      // Hand-minted tokens (mint) name the client 'minted'; a token's client must exist.
      await addClient(server, ['vnflcm:v2:all'], 'p1', 'minted');
      good = await tokenOf(server, lcm);
    });
    after(() => server.close());

    test('no token: 401 with a Bearer challenge and a detail saying how to authenticate', async () => {
      const r = await get(PROTECTED);
      assert.ok(isProblem(r, 401), r.text);
      assert.equal(r.headers.get('www-authenticate'), 'Bearer realm="bosun"');
      assert.equal(r.body.detail, REQUIRED);
    });

    test('the challenge header goes on the wire as WWW-Authenticate', async () => {
      const raw = await rawHttp(
        server.url,
        `GET ${PROTECTED} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      );
      assert.equal(raw.status, 401);
      assert.equal(rawHeader(raw, 'WWW-Authenticate'), 'Bearer realm="bosun"');
    });

    test('a valid token in Authorization: 200', async () => {
      const r = await get(PROTECTED, bearer(good));
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.uriPrefix, '/vnflcm/v2');
    });

    test('the same token in X-Auth-Token (the Tacker client): 200', async () => {
      assert.equal((await get(PROTECTED, { 'x-auth-token': good })).status, 200);
    });

    test('the bearer scheme is case-insensitive', async () => {
      assert.equal((await get(PROTECTED, { authorization: `bearer ${good}` })).status, 200);
    });

    test('a token without a scope for the API: 403 insufficient_scope', async () => {
      const r = await get(PROTECTED, bearer(await tokenOf(server, pkg)));
      assert.ok(isProblem(r, 403), r.text);
      assert.match(r.headers.get('www-authenticate') ?? '', /insufficient_scope/);
    });

    test('a token carries only the scopes requested', async () => {
      const both = await addClient(server, ['vnflcm:v2:all', 'vnfpkgm:v1:all'], 'p1');
      const narrow = await tokenOf(server, both, 'vnfpkgm:v1:all');
      assert.equal((await get(PROTECTED, bearer(narrow))).status, 403);
      assert.equal((await get('/vnfpkgm/v1/api_versions', bearer(narrow))).status, 200);
    });

    test('the Caller comes from the token: project claim, subject, scopes', async () => {
      const r = await get('/fixture/whoami', bearer(good));
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.body, {
        subject: lcm.clientId,
        project: 'p1',
        scopes: ['vnflcm:v2:all'],
        admin: false,
      });
    });

    test('the admin scope reaches every API and admin routes; others do not reach admin routes', async () => {
      const token = await tokenOf(server, admin);
      for (const path of [
        PROTECTED,
        '/vnfpkgm/v2/api_versions',
        '/vnffm/v1/api_versions',
        '/fixture/admin',
      ]) {
        assert.equal((await get(path, bearer(token))).status, 200, path);
      }
      const me = await get('/fixture/whoami', bearer(token));
      assert.deepEqual(me.body, {
        subject: admin.clientId,
        project: 'ops',
        scopes: ['bosun:admin'],
        admin: true,
      });
      assert.equal((await get('/fixture/admin', bearer(good))).status, 403);
    });

    test('an expired token: 401', async () => {
      const now = Math.floor(Date.now() / 1000);
      const token = await mint(server, { iat: now - 7200, exp: now - 3600 });
      assertInvalidToken(await get(PROTECTED, bearer(token)), /expired/, token);
    });

    test('a hand-minted token with the server key is accepted (the test minting is sound)', async () => {
      assert.equal((await get(PROTECTED, bearer(await mint(server, {})))).status, 200);
    });

    test('a token signed by another key: 401', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const own = await mint(server, {});
      const { kid } = JSON.parse(Buffer.from(own.split('.')[0], 'base64url').toString());
      // Same kid as the server key, to make sure the signature itself is checked.
      const token = await mint(server, {}, { key: privateKey, kid });
      assertInvalidToken(await get(PROTECTED, bearer(token)), /signature/, token);
    });

    test('a token from another issuer or for another audience: 401', async () => {
      const iss = await mint(server, { iss: 'someone-else' });
      assertInvalidToken(await get(PROTECTED, bearer(iss)), /not issued by 'bosun'/, iss);
      const aud = await mint(server, { aud: 'another-service' });
      assertInvalidToken(await get(PROTECTED, bearer(aud)), /audience 'bosun'/, aud);
    });

    test('a token without the project claim: 401 naming the claim', async () => {
      const token = await mint(server, { project: undefined });
      assertInvalidToken(await get(PROTECTED, bearer(token)), /token has no 'project' claim/, token);
    });

    test('a token without exp: 401', async () => {
      const token = await mint(server, { exp: undefined });
      assertInvalidToken(await get(PROTECTED, bearer(token)), /'exp'/, token);
    });

    test('an HS256 token or an unsigned one: 401', async () => {
      const hs = await new SignJWT({ iss: 'bosun', aud: 'bosun', project: 'p1', scope: 'vnflcm:v2:all' })
        .setProtectedHeader({ alg: 'HS256' })
        .setExpirationTime('10m')
        .sign(Buffer.alloc(32, 1));
      assertInvalidToken(await get(PROTECTED, bearer(hs)), /algorithm/, hs);
      const [, payload] = hs.split('.');
      const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
      assertInvalidToken(await get(PROTECTED, bearer(none)), /well-formed|algorithm/);
    });

    test('garbage tokens: 401', async () => {
      for (const token of ['garbage', 'a.b.c', 'x'.repeat(2000), `${good}x.y`]) {
        assertInvalidToken(
          await get(PROTECTED, bearer(token)),
          /not a well-formed signed JWT|signature/,
          token,
        );
        assertInvalidToken(await get(PROTECTED, { 'x-auth-token': token }), /well-formed|signature/, token);
      }
      const tampered = `${good.slice(0, -4)}AAAA`;
      assertInvalidToken(await get(PROTECTED, bearer(tampered)), /signature/);
    });

    test('Authorization with another scheme or an empty Bearer: 401', async () => {
      const basic = await get(PROTECTED, { authorization: 'Basic dXNlcjpwYXNz' });
      assert.ok(isProblem(basic, 401), basic.text);
      assert.equal(basic.headers.get('www-authenticate'), 'Bearer realm="bosun"');
      assert.match(basic.body.detail as string, /'Basic' is not accepted/);
      assertInvalidToken(await get(PROTECTED, { authorization: 'Bearer' }), /Bearer <token>/);
      const empty = await get(PROTECTED, { 'x-auth-token': '' });
      assert.equal(empty.status, 401);
    });

    test('public routes need no token, in oauth2 mode too', async () => {
      for (const path of ['/healthz', '/readyz', '/metrics', '/oauth2/jwks']) {
        assert.equal((await get(path)).status, 200, path);
      }
      // A bad token on a public route is ignored rather than refused.
      assert.equal((await get('/healthz', bearer('garbage'))).status, 200);
      assert.deepEqual((await get('/readyz')).body, { status: 'ready', database: dialect });
    });

    test('after all the refusals the server still answers a good request', async () => {
      assert.equal((await get(PROTECTED, bearer(good))).status, 200);
      assert.equal((await get('/fixture/whoami', { 'x-auth-token': good })).status, 200);
    });

    test('another replica on the same database accepts the token (shared, persisted key)', async () => {
      const other = await startTestServer(dialect, {
        databaseUrl: server.config.database.url,
        config: {
          auth: { mode: 'oauth2' },
          security: { encryptionKey: server.config.security.encryptionKey },
        },
      });
      try {
        assert.equal((await http(other.url, 'GET', PROTECTED, { headers: bearer(good) })).status, 200);
        const mine = await http<Json>(server.url, 'GET', '/oauth2/jwks');
        const theirs = await http<Json>(other.url, 'GET', '/oauth2/jwks');
        assert.deepEqual(theirs.body, mine.body);
      } finally {
        await other.close();
      }
    });
  });
}

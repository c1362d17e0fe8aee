import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from 'jose';
import { DIALECTS } from '../../support/databases.ts';
import { type HttpResult, http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, basic, FORM, type Json, requestToken, type TestClient } from './oauth2-support.ts';

function assertOAuthError(r: HttpResult, status: number, error: string) {
  assert.ok(isProblem(r, status), `expected ProblemDetails ${status}, got ${r.status} ${r.text}`);
  assert.equal((r.body as { error: string }).error, error);
  assert.equal(r.headers.get('cache-control'), 'no-store');
  if (status === 401) assert.equal(r.headers.get('www-authenticate'), 'Basic realm="bosun"');
}

for (const dialect of DIALECTS) {
  describe(`OAuth 2.0 token endpoint on ${dialect}`, () => {
    let server: TestServer;
    let lcm: TestClient;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { auth: { mode: 'oauth2' } },
        // A route that says it consumes forms, outside the token endpoint's plugin.
        registrars: [
          (app) => {
            app.post(
              '/fixture/form',
              { config: { sol013: { access: 'public', consumes: [FORM['content-type']] } } },
              async (req) => req.body ?? {},
            );
          },
        ],
      });
      lcm = await addClient(server, ['vnflcm:v2:all', 'vnfpkgm:v1:readonly'], 'p1');
    });
    after(() => server.close());

    test('HTTP Basic client credentials give a signed JWT with every granted scope', async () => {
      const r = await requestToken(server, lcm);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.headers.get('cache-control'), 'no-store');
      const body = r.body as Record<string, unknown>;
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 3600);
      assert.equal(body.scope, 'vnflcm:v2:all vnfpkgm:v1:readonly');
      const token = body.access_token as string;
      const claims = decodeJwt(token);
      assert.equal(claims.iss, 'bosun');
      assert.equal(claims.aud, 'bosun');
      assert.equal(claims.sub, lcm.clientId);
      assert.equal(claims.client_id, lcm.clientId);
      assert.equal(claims.project, 'p1');
      assert.equal(claims.scope, 'vnflcm:v2:all vnfpkgm:v1:readonly');
      assert.equal((claims.exp ?? 0) - (claims.iat ?? 0), 3600);
      assert.ok(Math.abs((claims.iat ?? 0) - Date.now() / 1000) < 60);
      assert.equal(typeof claims.jti, 'string');
      const header = decodeProtectedHeader(token);
      assert.equal(header.alg, 'ES256');
      // The published JWKS verifies it.
      const jwks = await http<JSONWebKeySet>(server.url, 'GET', '/oauth2/jwks');
      assert.equal(jwks.status, 200);
      assert.equal(jwks.body.keys.length, 1);
      assert.equal(jwks.body.keys[0].kid, header.kid);
      assert.equal(jwks.body.keys[0].d, undefined, 'the private part must never be published');
      await jwtVerify(token, createLocalJWKSet(jwks.body), { issuer: 'bosun', audience: 'bosun' });
    });

    test('two tokens have different jti', async () => {
      const a = decodeJwt((await requestToken(server, lcm)).body.access_token as string);
      const b = decodeJwt((await requestToken(server, lcm)).body.access_token as string);
      assert.notEqual(a.jti, b.jti);
    });

    test('credentials in a form body, with a requested subset of the scopes', async () => {
      const form = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: lcm.clientId,
        client_secret: lcm.secret,
        scope: 'vnfpkgm:v1:readonly',
      });
      const r = await http<Json>(server.url, 'POST', '/oauth2/token', {
        headers: FORM,
        body: form.toString(),
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.scope, 'vnfpkgm:v1:readonly');
      assert.equal(decodeJwt(r.body.access_token as string).scope, 'vnfpkgm:v1:readonly');
    });

    test('credentials in a JSON body', async () => {
      const r = await http<Json>(server.url, 'POST', '/oauth2/token', {
        body: { grant_type: 'client_credentials', client_id: lcm.clientId, client_secret: lcm.secret },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.token_type, 'Bearer');
    });

    test('wrong secret and unknown client: 401 invalid_client, indistinguishable', async () => {
      const wrong = await requestToken(server, { ...lcm, secret: `${lcm.secret}x` });
      assertOAuthError(wrong, 401, 'invalid_client');
      const unknown = await requestToken(server, { clientId: 'nobody', secret: lcm.secret });
      assertOAuthError(unknown, 401, 'invalid_client');
      assert.equal(wrong.body.detail, unknown.body.detail);
    });

    test('no client authentication: 401 invalid_client', async () => {
      const r = await http<Json>(server.url, 'POST', '/oauth2/token', {
        headers: FORM,
        body: 'grant_type=client_credentials',
      });
      assertOAuthError(r, 401, 'invalid_client');
    });

    test('missing grant_type: 400 invalid_request', async () => {
      assertOAuthError(await requestToken(server, lcm, 'scope=vnflcm:v2:all'), 400, 'invalid_request');
    });

    test('another grant type: 400 unsupported_grant_type', async () => {
      const r = await requestToken(server, lcm, 'grant_type=password&username=a&password=b');
      assertOAuthError(r, 400, 'unsupported_grant_type');
    });

    test('a scope the client was not granted: 400 invalid_scope naming it', async () => {
      const r = await requestToken(
        server,
        lcm,
        'grant_type=client_credentials&scope=vnflcm:v2:all%20bosun:admin',
      );
      assertOAuthError(r, 400, 'invalid_scope');
      assert.match(r.body.detail as string, /'bosun:admin'/);
    });

    test('a repeated parameter or two authentication methods: 400 invalid_request', async () => {
      assertOAuthError(
        await requestToken(server, lcm, 'grant_type=client_credentials&grant_type=client_credentials'),
        400,
        'invalid_request',
      );
      const both = `grant_type=client_credentials&client_id=${lcm.clientId}&client_secret=${lcm.secret}`;
      assertOAuthError(await requestToken(server, lcm, both), 400, 'invalid_request');
    });

    test('malformed Basic credentials: 400 invalid_request', async () => {
      const r = await http<Json>(server.url, 'POST', '/oauth2/token', {
        headers: { ...FORM, authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` },
        body: 'grant_type=client_credentials',
      });
      assertOAuthError(r, 400, 'invalid_request');
    });

    test('a body that is neither form nor JSON: 415', async () => {
      const r = await http<Json>(server.url, 'POST', '/oauth2/token', {
        headers: { 'content-type': 'text/plain', authorization: basic(lcm) },
        body: 'grant_type=client_credentials',
      });
      assert.ok(isProblem(r, 415), r.text);
    });

    test('the form parser exists for the token endpoint only', async () => {
      const r = await http(server.url, 'POST', '/fixture/form', { headers: FORM, body: 'a=b' });
      assert.ok(isProblem(r, 415), r.text);
    });
  });
}

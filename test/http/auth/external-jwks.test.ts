import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type CryptoKey, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, type Json, PROTECTED, tokenOf, whoami } from './oauth2-support.ts';

const ISSUER = 'https://idp.example.test/realms/nfv';

/** A tiny authorization server: serves the JWKS of a key generated here, counts fetches. */
async function startIdp() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'idp-1', alg: 'RS256', use: 'sig' };
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    fetches++;
    if (req.url !== '/jwks') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    jwksUrl: `http://127.0.0.1:${port}/jwks`,
    privateKey,
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function idpToken(key: CryptoKey, claims: JWTPayload, kid = 'idp-1'): Promise<string> {
  return new SignJWT({ iss: ISSUER, aud: 'bosun', sub: 'svc-nfvo', tenant: 't9', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);
}

for (const dialect of DIALECTS) {
  describe(`OAuth 2.0 with an external authorization server on ${dialect}`, () => {
    let idp: Awaited<ReturnType<typeof startIdp>>;
    let server: TestServer;
    const get = (path: string, headers: Record<string, string> = {}) =>
      http<Json>(server.url, 'GET', path, { headers });

    before(async () => {
      idp = await startIdp();
      server = await startTestServer(dialect, {
        config: {
          auth: {
            mode: 'oauth2',
            oauth2: { jwksUrl: idp.jwksUrl, externalIssuer: ISSUER, projectClaim: 'tenant' },
          },
        },
        registrars: [whoami],
      });
    });
    after(async () => {
      await server.close();
      await idp.close();
    });

    test('a token of the external server with scopes in scp: 200, Caller from its claims', async () => {
      const token = await idpToken(idp.privateKey, { scp: ['vnflcm:v2:readonly'] });
      assert.equal((await get(PROTECTED, bearer(token))).status, 200);
      const me = await get('/fixture/whoami', { 'x-auth-token': token });
      assert.deepEqual(me.body, {
        subject: 'svc-nfvo',
        project: 't9',
        scopes: ['vnflcm:v2:readonly'],
        admin: false,
      });
      assert.ok(idp.fetches() >= 1);
    });

    test('a space-separated scope claim works too; without the needed scope: 403', async () => {
      const ok = await idpToken(idp.privateKey, { scope: 'openid vnflcm:v2:all' });
      assert.equal((await get(PROTECTED, bearer(ok))).status, 200);
      const other = await idpToken(idp.privateKey, { scope: 'openid vnfpkgm:v1:all' });
      assert.equal((await get(PROTECTED, bearer(other))).status, 403);
    });

    test('signed by the external key but with a wrong issuer or audience: 401', async () => {
      const iss = await idpToken(idp.privateKey, { iss: 'https://evil.example', scope: 'vnflcm:v2:all' });
      const r = await get(PROTECTED, bearer(iss));
      assert.ok(isProblem(r, 401), r.text);
      assert.match(r.body.detail as string, /not issued by/);
      const aud = await idpToken(idp.privateKey, { aud: 'other', scope: 'vnflcm:v2:all' });
      assert.ok(isProblem(await get(PROTECTED, bearer(aud)), 401));
    });

    test('signed by a key the external server does not publish: 401', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      for (const kid of ['idp-1', 'idp-2']) {
        const token = await idpToken(privateKey, { scope: 'vnflcm:v2:all' }, kid);
        const r = await get(PROTECTED, bearer(token));
        assert.ok(isProblem(r, 401), `${kid}: ${r.text}`);
        assert.match(r.headers.get('www-authenticate') ?? '', /invalid_token/);
      }
    });

    test('without the configured project claim: 401 naming it', async () => {
      const token = await idpToken(idp.privateKey, { tenant: undefined, scope: 'vnflcm:v2:all' });
      const r = await get(PROTECTED, bearer(token));
      assert.ok(isProblem(r, 401), r.text);
      assert.match(r.body.detail as string, /token has no 'tenant' claim/);
    });

    test("Bosun's own tokens are accepted alongside, with the project in the configured claim", async () => {
      const client = await addClient(server, ['vnflcm:v2:all'], 'p7');
      const token = await tokenOf(server, client);
      const me = await get('/fixture/whoami', bearer(token));
      assert.equal(me.status, 200, me.text);
      assert.equal(me.body.project, 'p7');
    });

    test('still answers a good request after the refusals', async () => {
      const token = await idpToken(idp.privateKey, { scope: 'vnflcm:v2:all' });
      assert.equal((await get(PROTECTED, bearer(token))).status, 200);
    });
  });

  describe(`OAuth 2.0 external-only mode on ${dialect}`, () => {
    test('no built-in endpoint; an unreachable JWKS answers 503, not 401', async () => {
      const idp = await startIdp();
      const jwksUrl = idp.jwksUrl;
      await idp.close(); // nothing listens there any more
      const server = await startTestServer(dialect, {
        config: { auth: { mode: 'oauth2', oauth2: { builtinTokenEndpoint: false, jwksUrl } } },
      });
      try {
        const token = await idpToken(idp.privateKey, { project: 'p1', scope: 'vnflcm:v2:all' });
        const r = await http<Json>(server.url, 'GET', PROTECTED, { headers: bearer(token) });
        assert.ok(isProblem(r, 503), r.text);
        assert.ok(r.headers.get('retry-after'));
        const endpoint = await http(server.url, 'POST', '/oauth2/token', { body: {} });
        assert.notEqual(endpoint.status, 200);
        // Unknown paths answer 404 whatever the authentication mode.
        assert.equal((await http(server.url, 'GET', '/oauth2/jwks')).status, 404);
        assert.equal((await http(server.url, 'GET', '/healthz')).status, 200);
      } finally {
        await server.close();
      }
    });
  });
}

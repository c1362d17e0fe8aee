/** Helpers of the OAuth 2.0 tests: clients, tokens from the endpoint, and hand-minted tokens. */
import { type CryptoKey, type JWTPayload, SignJWT } from 'jose';
import type { RouteRegistrar } from '../../../src/http/app.ts';
import { loadSigningKey } from '../../../src/http/auth/oauth2/signing-key.ts';
import { AuthClientStore } from '../../../src/store/auth-clients/store.ts';
import { http } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';

export type Json = Record<string, unknown>;

export interface TestClient {
  clientId: string;
  secret: string;
}

export async function addClient(
  server: TestServer,
  scopes: string[],
  project = 'p1',
  clientId?: string,
): Promise<TestClient> {
  const store = new AuthClientStore(server.context.db, { adminScope: server.config.auth.oauth2.adminScope });
  const { client, secret } = await store.add({ clientId, project, scopes });
  return { clientId: client.clientId, secret };
}

export const basic = (c: TestClient) =>
  `Basic ${Buffer.from(`${c.clientId}:${c.secret}`).toString('base64')}`;

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** POST /oauth2/token with HTTP Basic and a form body. */
export function requestToken(server: TestServer, client: TestClient, form = 'grant_type=client_credentials') {
  return http<Json>(server.url, 'POST', '/oauth2/token', {
    headers: { ...FORM, authorization: basic(client) },
    body: form,
  });
}

export async function tokenOf(server: TestServer, client: TestClient, scope?: string): Promise<string> {
  const form = 'grant_type=client_credentials' + (scope ? `&scope=${encodeURIComponent(scope)}` : '');
  const r = await requestToken(server, client, form);
  if (r.status !== 200) throw new Error(`token request failed: ${r.text}`);
  return (r.body as { access_token: string }).access_token;
}

export interface MintOptions {
  key?: CryptoKey;
  alg?: string;
  kid?: string;
  typ?: string;
}

/** A token shaped like Bosun's, signed with the server's own key unless another is given. */
export async function mint(
  server: TestServer,
  claims: JWTPayload,
  options: MintOptions = {},
): Promise<string> {
  const own = await loadSigningKey(server.context.keys);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: 'bosun',
    aud: 'bosun',
    sub: 'minted',
    project: 'p1',
    scope: 'vnflcm:v2:all',
    iat: now,
    exp: now + 600,
    ...claims,
  })
    .setProtectedHeader({
      alg: options.alg ?? 'ES256',
      kid: options.kid ?? (options.key ? undefined : own.kid),
      typ: options.typ ?? 'at+jwt',
    })
    .sign(options.key ?? own.privateKey);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** GET /fixture/whoami answers the Caller of the request (scopes as a sorted array). */
export const whoami: RouteRegistrar = (app) => {
  app.get(
    '/fixture/whoami',
    { config: { sol013: { api: 'vnflcm', major: 'v2', versionHeader: 'optional' } } },
    async (req) => ({ ...req.caller, scopes: [...req.caller.scopes].sort() }),
  );
  app.get('/fixture/admin', { config: { sol013: { access: 'admin' } } }, async () => ({ ok: true }));
};

/** The protected resource the tests call: needs vnflcm:v2:readonly or vnflcm:v2:all. */
export const PROTECTED = '/vnflcm/v2/api_versions';

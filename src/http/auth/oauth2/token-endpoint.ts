/**
 * The built-in authorization server: `POST /oauth2/token` (RFC 6749 §4.4 client credentials
 * grant) and `GET /oauth2/jwks` (the public key that verifies its tokens).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthClientStore } from '../../../store/auth-clients/store.ts';
import { JSON_TYPE } from '../../sol013/route-policy.ts';
import { clientCredentialsOf } from './client-credentials.ts';
import { FORM_TYPE, registerFormParser } from './form-body.ts';
import { issueAccessToken, type TokenSettings } from './issue-token.ts';
import type { SigningKey } from './signing-key.ts';
import { NO_STORE, oauthError } from './token-error.ts';

export interface TokenEndpointDeps {
  clients: AuthClientStore;
  key: SigningKey;
  settings: TokenSettings;
}

export const TOKEN_PATH = '/oauth2/token';
export const JWKS_PATH = '/oauth2/jwks';

/** One string parameter; RFC 6749 §3.2 forbids repeating a parameter. */
function param(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) {
    throw oauthError('invalid_request', `The parameter '${name}' is given more than once.`);
  }
  if (typeof value !== 'string') {
    throw oauthError('invalid_request', `The parameter '${name}' must be a string.`);
  }
  return value;
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw oauthError('invalid_request', 'The request body must be a form or a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** The requested scopes, which must all be granted to the client; none requested = all granted. */
function grantedScopes(
  requested: string | undefined,
  clientId: string,
  granted: readonly string[],
): string[] {
  const wanted = [...new Set((requested ?? '').split(' ').filter(Boolean))];
  if (wanted.length === 0) return [...granted];
  const refused = wanted.filter((s) => !granted.includes(s));
  if (refused.length > 0) {
    throw oauthError(
      'invalid_scope',
      `Scope ${refused.map((s) => `'${s}'`).join(', ')} is not granted to client '${clientId}'; granted: ${granted.join(' ')}.`,
    );
  }
  return wanted;
}

async function token(deps: TokenEndpointDeps, request: FastifyRequest, reply: FastifyReply) {
  const body = bodyOf(request);
  const grantType = param(body, 'grant_type');
  if (grantType === undefined) {
    throw oauthError('invalid_request', "The parameter 'grant_type' is missing; use 'client_credentials'.");
  }
  if (grantType !== 'client_credentials') {
    throw oauthError(
      'unsupported_grant_type',
      `Grant type '${grantType}' is not supported; this endpoint serves 'client_credentials' only.`,
    );
  }
  const credentials = clientCredentialsOf(
    request.headers.authorization,
    param(body, 'client_id'),
    param(body, 'client_secret'),
  );
  const scope = param(body, 'scope');
  const client = await deps.clients.verify(credentials.clientId, credentials.secret);
  if (!client) {
    throw oauthError('invalid_client', 'Client authentication failed: unknown client or wrong secret.');
  }
  const scopes = grantedScopes(scope, client.clientId, client.scopes);
  const accessToken = await issueAccessToken(deps.key, deps.settings, client, scopes);
  reply.headers(NO_STORE);
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: deps.settings.tokenTtlSeconds,
    scope: scopes.join(' '),
  };
}

export function registerTokenEndpoint(app: FastifyInstance, deps: TokenEndpointDeps): void {
  // Encapsulated, so the form parser exists for the token endpoint only.
  app.register(async (scope) => {
    registerFormParser(scope);
    scope.post(
      TOKEN_PATH,
      { config: { sol013: { access: 'public', consumes: [FORM_TYPE, JSON_TYPE] } } },
      (request, reply) => token(deps, request, reply),
    );
  });
  app.get(
    JWKS_PATH,
    { config: { sol013: { access: 'public', produces: [JSON_TYPE, 'application/jwk-set+json'] } } },
    async (request, reply) => {
      reply.header('Cache-Control', 'public, max-age=300');
      if (request.negotiatedType) reply.type(request.negotiatedType);
      return { keys: [deps.key.publicJwk] };
    },
  );
}

/** Mints the access tokens of the built-in token endpoint (RFC 9068 JWT access tokens). */
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { AuthClient } from '../../../store/auth-clients/store.ts';
import { SIGNING_ALG, type SigningKey } from './signing-key.ts';

export interface TokenSettings {
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  projectClaim: string;
}

export const ACCESS_TOKEN_TYP = 'at+jwt';

/** Claim carrying the client's registration time: a token outlives neither the client nor its re-creation. */
export const CLIENT_REGISTERED_CLAIM = 'client_registered_at';

export async function issueAccessToken(
  key: SigningKey,
  settings: TokenSettings,
  client: AuthClient,
  scopes: readonly string[],
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  // The project claim goes first so that a misconfigured projectClaim cannot overwrite iss/sub/….
  return new SignJWT({
    [settings.projectClaim]: client.project,
    client_id: client.clientId,
    [CLIENT_REGISTERED_CLAIM]: client.createdAt,
    scope: scopes.join(' '),
  })
    .setProtectedHeader({ alg: SIGNING_ALG, kid: key.kid, typ: ACCESS_TOKEN_TYP })
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setSubject(client.clientId)
    .setIssuedAt(now)
    .setExpirationTime(now + settings.tokenTtlSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

/**
 * auth.mode oauth2 (SOL013 §8): bearer tokens from Bosun's built-in client-credentials token
 * endpoint and/or from an external authorization server (auth.oauth2.jwksUrl).
 */
import { createRemoteJWKSet } from 'jose';
import type { Config } from '../../../config/load.ts';
import type { ServerKeys } from '../../../security/server-keys.ts';
import { AuthClientStore } from '../../../store/auth-clients/store.ts';
import type { Database } from '../../../store/db/database.ts';
import type { AuthSetup } from '../setup.ts';
import { createOAuth2Authenticator } from './authenticator.ts';
import { clientCheck } from './client-check.ts';
import { loadSigningKey } from './signing-key.ts';
import { registerTokenEndpoint } from './token-endpoint.ts';
import { createTokenVerifier, type VerifierOptions } from './verify-token.ts';

function jwksUrlOf(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new Error(`auth.oauth2.jwksUrl: '${url}' is not a valid URL`);
  }
}

export async function createOAuth2Auth(config: Config, db: Database, keys: ServerKeys): Promise<AuthSetup> {
  const settings = config.auth.oauth2;
  const verifier: VerifierOptions = { audience: settings.audience };
  // Loaded at start, so that a key that cannot be unsealed stops the server rather than every request.
  const key = settings.builtinTokenEndpoint ? await loadSigningKey(keys) : undefined;
  const clients = new AuthClientStore(db, { adminScope: settings.adminScope });
  if (key) {
    const check = clientCheck(clients);
    verifier.local = { kid: key.kid, publicKey: key.publicKey, issuer: settings.issuer, check };
  }
  if (settings.jwksUrl) {
    verifier.external = {
      jwks: createRemoteJWKSet(jwksUrlOf(settings.jwksUrl), { timeoutDuration: 5000 }),
      issuer: settings.externalIssuer || undefined,
    };
  }
  const authenticator = createOAuth2Authenticator(createTokenVerifier(verifier), settings);
  return {
    authenticator,
    routes: (app) => {
      if (key) registerTokenEndpoint(app, { clients, key, settings });
    },
  };
}

/** auth.mode oauth2: the caller is who the verified bearer token says it is. */
import type { Authenticator } from '../authenticator.ts';
import { bearerTokenOf } from './bearer-token.ts';
import { type ClaimSettings, callerFromClaims } from './claims.ts';
import type { TokenVerifier } from './verify-token.ts';

export function createOAuth2Authenticator(verify: TokenVerifier, settings: ClaimSettings): Authenticator {
  return {
    async authenticate(request) {
      const claims = await verify(bearerTokenOf(request));
      return callerFromClaims(claims, settings);
    },
  };
}

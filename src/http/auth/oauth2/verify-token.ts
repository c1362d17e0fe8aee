/**
 * Verifies an access token's signature and registered claims: Bosun's own tokens with the
 * local key, and — when auth.oauth2.jwksUrl is set — an external authorization server's tokens
 * with its published keys. jose errors become 401s that say what is wrong without quoting the token.
 */
import {
  type CryptoKey,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { ApiError } from '../../../sol/problem.ts';
import { invalidToken } from './bearer-error.ts';
import type { ClientCheck } from './client-check.ts';
import { ACCESS_TOKEN_TYP } from './issue-token.ts';
import { SIGNING_ALG } from './signing-key.ts';

/** Asymmetric algorithms only: a shared-secret (HS*) or unsigned token is never accepted. */
const EXTERNAL_ALGS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
const CLOCK_TOLERANCE_SECONDS = 30;
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

export interface VerifierOptions {
  audience: string;
  /** The built-in token endpoint's key, when it is enabled, and the check that its client still holds the token. */
  local?: { kid: string; publicKey: CryptoKey; issuer: string; check?: ClientCheck };
  /** An external authorization server's keys; issuer unchecked when undefined. */
  external?: { jwks: JWTVerifyGetKey; issuer?: string };
}

export type TokenVerifier = (token: string) => Promise<JWTPayload>;

function claimProblem(
  error: errors.JWTClaimValidationFailed,
  expectedIssuer: string | undefined,
  audience: string,
) {
  const { claim, reason } = error;
  if (reason === 'missing') return invalidToken(`it has no '${claim}' claim`);
  switch (claim) {
    case 'iss':
      return invalidToken(
        expectedIssuer
          ? `it was not issued by '${expectedIssuer}' (wrong 'iss')`
          : "its 'iss' claim is invalid",
      );
    case 'aud':
      return invalidToken(`it is not meant for audience '${audience}' (wrong 'aud')`);
    case 'nbf':
      return invalidToken("it is not valid yet ('nbf' is in the future)");
    case 'typ':
      return invalidToken(`its 'typ' header is not '${ACCESS_TOKEN_TYP}'`);
    default:
      return invalidToken(`its '${claim}' claim is invalid`);
  }
}

function toApiError(error: unknown, expectedIssuer: string | undefined, audience: string, external: boolean) {
  if (error instanceof errors.JWTExpired) return invalidToken('it has expired');
  if (error instanceof errors.JWTClaimValidationFailed) return claimProblem(error, expectedIssuer, audience);
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return invalidToken('its signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey) {
    return invalidToken('it is signed by a key the authorization server does not publish');
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return invalidToken('its signature algorithm is not accepted');
  }
  if (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    (external && !(error instanceof errors.JOSEError))
  ) {
    // Not the client's fault: Bosun cannot reach or read the authorization server's keys.
    return new ApiError(
      503,
      'The external authorization server keys (auth.oauth2.jwksUrl) cannot be fetched; try again later.',
      {
        headers: { 'Retry-After': '30' },
      },
    );
  }
  if (error instanceof errors.JOSEError) return invalidToken('it is not a well-formed signed JWT');
  return error;
}

export function createTokenVerifier(options: VerifierOptions): TokenVerifier {
  const { audience, local, external } = options;
  const base = { audience, clockTolerance: CLOCK_TOLERANCE_SECONDS, requiredClaims: ['exp'] };
  return async (token) => {
    let kid: string | undefined;
    try {
      if (!COMPACT_JWS.test(token)) throw new TypeError('not a compact JWS');
      kid = decodeProtectedHeader(token).kid;
    } catch {
      throw invalidToken('it is not a well-formed signed JWT');
    }
    // Bosun's own tokens carry the local key's kid; anything else belongs to the external server.
    const useLocal = local !== undefined && (external === undefined || kid === local.kid);
    try {
      if (useLocal) {
        const opts = { ...base, issuer: local.issuer, algorithms: [SIGNING_ALG], typ: ACCESS_TOKEN_TYP };
        const { payload } = await jwtVerify(token, local.publicKey, opts);
        const revoked = await local.check?.(payload);
        if (revoked) throw invalidToken(revoked);
        return payload;
      }
      const opts = { ...base, issuer: external!.issuer, algorithms: EXTERNAL_ALGS };
      return (await jwtVerify(token, external!.jwks, opts)).payload;
    } catch (error) {
      const issuer = useLocal ? local!.issuer : external?.issuer;
      throw toApiError(error, issuer, audience, !useLocal);
    }
  };
}

/**
 * Client authentication of a token request (RFC 6749 §2.3.1): HTTP Basic, or client_id and
 * client_secret in the body — not both.
 */
import { oauthError } from './token-error.ts';

export interface ClientCredentials {
  clientId: string;
  secret: string;
}

/** RFC 6749 §2.3.1: id and secret are form-encoded before Basic encoding. */
function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
}

function fromBasic(authorization: string): ClientCredentials {
  const [scheme, encoded, ...rest] = authorization.trim().split(/\s+/);
  if (scheme.toLowerCase() !== 'basic') {
    throw oauthError(
      'invalid_client',
      `Client authentication scheme '${scheme}' is not supported; use HTTP Basic or client_id and client_secret in the body.`,
    );
  }
  const decoded = encoded && rest.length === 0 ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) {
    throw oauthError(
      'invalid_request',
      "Malformed HTTP Basic credentials: expected 'Basic base64(client_id:client_secret)'.",
    );
  }
  return { clientId: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

export function clientCredentialsOf(
  authorization: string | undefined,
  bodyId: string | undefined,
  bodySecret: string | undefined,
): ClientCredentials {
  if (authorization) {
    if (bodySecret !== undefined) {
      throw oauthError(
        'invalid_request',
        'The client authenticated both with HTTP Basic and with client_secret in the body; use one method.',
      );
    }
    const basic = fromBasic(authorization);
    if (bodyId !== undefined && bodyId !== basic.clientId) {
      throw oauthError('invalid_request', 'client_id in the body differs from the HTTP Basic client id.');
    }
    return basic;
  }
  if (bodyId === undefined || bodySecret === undefined) {
    throw oauthError(
      'invalid_client',
      'Client authentication required: send HTTP Basic credentials or client_id and client_secret in the body.',
    );
  }
  return { clientId: bodyId, secret: bodySecret };
}

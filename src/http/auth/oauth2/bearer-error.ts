/** RFC 6750 §3 answers for a missing or unusable access token: 401 with a Bearer challenge. */
import { ApiError } from '../../../sol/problem.ts';

export const BEARER_REALM = 'Bearer realm="bosun"';

export const AUTHENTICATION_REQUIRED =
  "Authentication required: send an OAuth 2.0 access token as 'Authorization: Bearer <token>' (or X-Auth-Token).";

export function authenticationRequired(detail = AUTHENTICATION_REQUIRED): ApiError {
  return new ApiError(401, detail, { headers: { 'WWW-Authenticate': BEARER_REALM } });
}

/** `reason` completes "The access token is not accepted: …"; it must never quote the token. */
export function invalidToken(reason: string): ApiError {
  // error_description is a quoted-string limited to printable ASCII without '"' and '\'.
  const description = reason.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "'");
  return new ApiError(401, `The access token is not accepted: ${reason}.`, {
    headers: {
      'WWW-Authenticate': `${BEARER_REALM}, error="invalid_token", error_description="${description}"`,
    },
  });
}

/**
 * RFC 6749 §5.2 errors of the token endpoint, rendered as ProblemDetails (Bosun's one error
 * shape) with the OAuth `error` and `error_description` members added, so that OAuth client
 * libraries still find what they look for.
 */
import { ApiError } from '../../../sol/problem.ts';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unsupported_grant_type'
  | 'invalid_scope';

export const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' } as const;

export function oauthError(code: OAuthErrorCode, detail: string): ApiError {
  const status = code === 'invalid_client' ? 401 : 400;
  const headers: Record<string, string> = { ...NO_STORE };
  if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="bosun"';
  return new ApiError(status, detail, { headers, extensions: { error: code, error_description: detail } });
}

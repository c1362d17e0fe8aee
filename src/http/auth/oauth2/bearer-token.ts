/**
 * Where the access token comes from: `Authorization: Bearer <token>`, or `X-Auth-Token: <token>`
 * because the Tacker client can send only that header.
 */
import type { FastifyRequest } from 'fastify';
import { authenticationRequired, invalidToken } from './bearer-error.ts';

export function bearerTokenOf(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  if (authorization !== undefined && authorization.trim() !== '') {
    const [scheme, token, ...rest] = authorization.trim().split(/\s+/);
    if (scheme.toLowerCase() === 'bearer') {
      if (!token || rest.length > 0) throw invalidToken("the Authorization header is not 'Bearer <token>'");
      return token;
    }
    if (request.headers['x-auth-token'] === undefined) {
      throw authenticationRequired(
        `Authorization scheme '${scheme}' is not accepted here: send an OAuth 2.0 access token as 'Authorization: Bearer <token>' (or X-Auth-Token).`,
      );
    }
  }
  const header = request.headers['x-auth-token'];
  if (header === undefined) throw authenticationRequired();
  if (Array.isArray(header)) throw invalidToken('the X-Auth-Token header is given more than once');
  const token = header.trim();
  if (token === '') throw authenticationRequired();
  return token;
}

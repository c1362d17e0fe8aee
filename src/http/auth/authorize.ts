/** onRequest hook: authenticate the caller and check the route's scopes (401 / 403). */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../sol013/problem.ts';
import type { Authenticator } from './authenticator.ts';
import { PUBLIC_CALLER } from './caller.ts';
import { scopesAllowing } from './scopes.ts';

export function authorizeHook(authenticator: Authenticator, adminScope: string) {
  return async function authorize(request: FastifyRequest): Promise<void> {
    const needed = scopesAllowing(request.routeOptions.config.sol013, request.method, adminScope);
    if (needed.length === 0) {
      request.caller = PUBLIC_CALLER;
      return;
    }
    const caller = await authenticator.authenticate(request);
    request.caller = caller;
    if (caller.admin) return;
    if (!needed.some((s) => caller.scopes.has(s))) {
      throw new ApiError(
        403,
        `The access token does not grant this operation; it needs one of the scopes: ${needed.join(', ')}.`,
        { headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${needed.join(' ')}"` } },
      );
    }
  };
}

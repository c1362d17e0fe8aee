/** Authenticates the caller and checks the route's scopes (401 / 403). */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../sol013/problem.ts';
import type { RoutePolicy } from '../sol013/route-policy.ts';
import type { Authenticator } from './authenticator.ts';
import { PUBLIC_CALLER } from './caller.ts';

export async function authorize(
  authenticator: Authenticator,
  policy: RoutePolicy,
  request: FastifyRequest,
): Promise<void> {
  const needed = policy.scopes;
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
      {
        headers: {
          'WWW-Authenticate': `Bearer realm="bosun", error="insufficient_scope", scope="${needed.join(' ')}"`,
        },
      },
    );
  }
}

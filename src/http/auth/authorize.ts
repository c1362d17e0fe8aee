/**
 * Authenticates the caller and checks the route's scopes (401 / 403). Synchronous when the
 * authenticator is (mode none), so the hot path does not pay for a promise.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../sol/problem.ts';
import type { RoutePolicy } from '../sol013/route-policy.ts';
import type { Authenticator } from './authenticator.ts';
import { type Caller, PUBLIC_CALLER } from './caller.ts';

function admit(policy: RoutePolicy, request: FastifyRequest, caller: Caller): void {
  request.caller = caller;
  if (caller.admin) return;
  const needed = policy.scopes;
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

export function authorize(
  authenticator: Authenticator,
  policy: RoutePolicy,
  request: FastifyRequest,
): Promise<void> | undefined {
  if (policy.scopes.length === 0) {
    request.caller = PUBLIC_CALLER;
    return undefined;
  }
  const caller = authenticator.authenticate(request);
  if (caller instanceof Promise) return caller.then((c) => admit(policy, request, c));
  admit(policy, request, caller);
  return undefined;
}

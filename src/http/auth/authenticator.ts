/** The seam between the HTTP layer and the authentication mode. */
import type { FastifyRequest } from 'fastify';
import type { Caller } from './caller.ts';

export interface Authenticator {
  /**
   * The caller, or an ApiError 401 (with WWW-Authenticate) when the credentials are missing or
   * bad. May answer synchronously (mode none) to keep the hot path free of promises.
   */
  authenticate(request: FastifyRequest): Caller | Promise<Caller>;
}

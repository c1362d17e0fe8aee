/** The seam between the HTTP layer and the authentication mode. */
import type { FastifyRequest } from 'fastify';
import type { Caller } from './caller.ts';

export interface Authenticator {
  /** The caller, or an ApiError 401 (with WWW-Authenticate) when the credentials are missing or bad. */
  authenticate(request: FastifyRequest): Promise<Caller>;
}

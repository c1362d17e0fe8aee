/**
 * /healthz: the process answers. /readyz: it should receive traffic — the database answers and
 * the server is not draining for shutdown; otherwise 503 with Retry-After, which takes the
 * replica out of a load balancer's pool (deploy/haproxy/bosun.cfg).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../sol/problem.ts';
import type { Database } from '../../store/db/database.ts';

export interface Readiness {
  /** Shutting down: /readyz says not ready, requests are still served (server.drainMs). */
  draining: boolean;
  /** The listener is closing: requests still arriving are refused with 503. */
  closing: boolean;
}

export function registerHealth(app: FastifyInstance, db: Database, readiness: Readiness): void {
  const config = { sol013: { access: 'public' as const, produces: ['*/*'] } };
  app.get('/healthz', { config }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config }, async () => {
    if (readiness.draining || readiness.closing) {
      throw new ApiError(503, 'The server is shutting down.', { headers: { 'Retry-After': '5' } });
    }
    try {
      await db.ping();
    } catch (err) {
      throw new ApiError(503, `The database does not answer: ${(err as Error).message}`, {
        headers: { 'Retry-After': '5' },
      });
    }
    return { status: 'ready', database: db.dialect };
  });
}

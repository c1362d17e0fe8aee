/** /vnflcm/v1 (SOL002/SOL003 v2.6.1) and /vnflcm/v2 (SOL002/SOL003 v3.3.1): subscriptions so far. */
import type { FastifyInstance } from 'fastify';
import { mountLcmSubscriptions } from './subscriptions.ts';

export function registerVnflcm(app: FastifyInstance): void {
  for (const major of ['v1', 'v2'] as const) mountLcmSubscriptions(app, major);
}

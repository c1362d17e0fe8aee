/** /vnffm/v1 (SOL002/SOL003 v3.3.1, API 1.3.0): subscriptions so far. */
import type { FastifyInstance } from 'fastify';
import { mountFmSubscriptions } from './subscriptions.ts';

export function registerVnffm(app: FastifyInstance): void {
  mountFmSubscriptions(app);
}

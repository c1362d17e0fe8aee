/** /vnfpm/v2 (SOL002/SOL003 v3.3.1, API 2.1.0): subscriptions so far. */
import type { FastifyInstance } from 'fastify';
import { mountPmSubscriptions } from './subscriptions.ts';

export function registerVnfpm(app: FastifyInstance): void {
  mountPmSubscriptions(app);
}

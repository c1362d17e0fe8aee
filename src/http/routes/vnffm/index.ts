/** /vnffm/v1 (SOL002/SOL003 v3.3.1, API 1.3.0): alarms and subscriptions. */
import type { FastifyInstance } from 'fastify';
import { mountAlarms } from './alarms.ts';
import { mountFmSubscriptions } from './subscriptions.ts';

export function registerVnffm(app: FastifyInstance): void {
  mountAlarms(app);
  mountFmSubscriptions(app);
}

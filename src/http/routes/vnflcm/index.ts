/**
 * /vnflcm/v1 (SOL002/SOL003 v2.6.1) and /vnflcm/v2 (SOL002/SOL003 v3.3.1): VNF instances and LCM
 * operation occurrences (v2; v1 mounts its own the same way), and subscriptions on both majors.
 */
import type { FastifyInstance } from 'fastify';
import { mountLcmSubscriptions } from './subscriptions.ts';
import { mountLcmV2 } from './v2/index.ts';

export function registerVnflcm(app: FastifyInstance): void {
  mountLcmV2(app);
  for (const major of ['v1', 'v2'] as const) mountLcmSubscriptions(app, major);
}

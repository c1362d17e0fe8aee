/**
 * /vnflcm/v1 (SOL002/SOL003 v2.6.1) and /vnflcm/v2 (SOL002/SOL003 v3.3.1): VNF instances and LCM
 * operation occurrences of each major (separate tables, one engine), and subscriptions on both.
 */
import type { FastifyInstance } from 'fastify';
import { mountLcmSubscriptions } from './subscriptions.ts';
import { mountLcmV1 } from './v1/index.ts';
import { mountLcmV2 } from './v2/index.ts';

export function registerVnflcm(app: FastifyInstance): void {
  mountLcmV1(app);
  mountLcmV2(app);
  for (const major of ['v1', 'v2'] as const) mountLcmSubscriptions(app, major);
}

/**
 * /vnflcm/v1 (SOL002/SOL003 v2.6.1) and /vnflcm/v2 (SOL002/SOL003 v3.3.1): VNF instances and LCM
 * operation occurrences of each major (separate tables, one engine, one set of routes fed each
 * major's data), and subscriptions on both.
 */
import type { FastifyInstance } from 'fastify';
import { mountInstances } from './instances.ts';
import { mountOpOccs } from './op-occs.ts';
import { mountLcmSubscriptions } from './subscriptions.ts';
import { LCM_API_V1 } from './v1/index.ts';
import { LCM_API_V2 } from './v2/index.ts';

export function registerVnflcm(app: FastifyInstance): void {
  for (const api of [LCM_API_V1, LCM_API_V2]) {
    mountInstances(app, api);
    mountOpOccs(app, api);
  }
  for (const major of ['v1', 'v2'] as const) mountLcmSubscriptions(app, major);
}

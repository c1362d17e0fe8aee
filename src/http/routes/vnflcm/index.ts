/**
 * /vnflcm/v1 (SOL002/SOL003 v2.6.1) and /vnflcm/v2 (SOL002/SOL003 v3.3.1): VNF instances and LCM
 * operation occurrences of each major (separate tables, one engine, one set of routes fed each
 * major's data), and subscriptions on both.
 */
import type { FastifyInstance } from 'fastify';
import type { LcmMajor } from '../../../lcm/majors/index.ts';
import type { LcmApi } from './api.ts';
import { mountInstances } from './instances.ts';
import { mountOpOccs } from './op-occs.ts';
import { mountLcmSubscriptions } from './subscriptions.ts';
import { LCM_API_V1 } from './v1/index.ts';
import { LCM_API_V2 } from './v2/index.ts';

/** The routes of every LCM major (LCM_MAJORS): the type asks a new major for its declaration. */
const LCM_APIS: Readonly<Record<LcmMajor, LcmApi>> = { v1: LCM_API_V1, v2: LCM_API_V2 };

export function registerVnflcm(app: FastifyInstance): void {
  for (const api of Object.values(LCM_APIS)) {
    mountInstances(app, api);
    mountOpOccs(app, api);
  }
  for (const api of Object.values(LCM_APIS)) mountLcmSubscriptions(app, api.major);
}

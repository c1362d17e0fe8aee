/** /vnflcm/v2 (SOL002/SOL003 v3.3.1, API version 2.0.0): VNF instances and LCM operation occurrences. */
import type { FastifyInstance } from 'fastify';
import { mountInstances } from './instances.ts';
import { mountOpOccs } from './op-occs.ts';

export function mountLcmV2(app: FastifyInstance): void {
  mountInstances(app);
  mountOpOccs(app);
}

/** /vnflcm/v1 (SOL002/SOL003 v2.6.1, API version 1.3.0): VNF instances and LCM operation occurrences. */
import type { FastifyInstance } from 'fastify';
import { mountInstancesV1 } from './instances.ts';
import { mountOpOccsV1 } from './op-occs.ts';

export function mountLcmV1(app: FastifyInstance): void {
  mountInstancesV1(app);
  mountOpOccsV1(app);
}

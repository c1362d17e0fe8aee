/**
 * The infrastructure admin APIs: the VIM registry (/bosun/v1/vims), the simulated VIM
 * (/bosun/v1/sim) and an instance's drift sync with its VIM (/bosun/v1/vnf_instances/{id}/sync).
 */
import type { FastifyInstance } from 'fastify';
import { registerInstanceSync } from './instance-sync.ts';
import { registerSimAdmin } from './sim.ts';
import { registerVimAdmin } from './vims.ts';

export function registerInfraAdmin(app: FastifyInstance): void {
  registerVimAdmin(app);
  registerSimAdmin(app);
  registerInstanceSync(app);
}

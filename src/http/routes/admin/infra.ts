/** The infrastructure admin APIs: the VIM registry (/bosun/v1/vims) and the simulated VIM (/bosun/v1/sim). */
import type { FastifyInstance } from 'fastify';
import { registerSimAdmin } from './sim.ts';
import { registerVimAdmin } from './vims.ts';

export function registerInfraAdmin(app: FastifyInstance): void {
  registerVimAdmin(app);
  registerSimAdmin(app);
}

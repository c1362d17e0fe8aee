/**
 * The replica sweep: registry rows of processes unseen for REPLICA_GONE_MS (killed, or their
 * machine lost) are removed. Run by the janitor; idempotent, so every replica may run it.
 */
import { sweepReplicas } from '../store/replicas/registry.ts';
import type { JobDeps } from './deps.ts';
import type { Sweep } from './janitor.ts';

export function replicaSweep({ db }: JobDeps): Sweep {
  return { name: 'replica sweep', run: () => sweepReplicas(db.kysely) };
}

/**
 * The delivery state sweep: delivery rows and queued notifications whose subscription no longer
 * exists (deletes remove them in their transaction; rows left by older versions or written
 * outside Bosun end here). Run by the janitor.
 */
import { sweepOrphanStates } from '../notify/delivery/queue.ts';
import type { JobDeps } from './deps.ts';
import type { Sweep } from './janitor.ts';

export function deliveryStateSweep({ db }: JobDeps): Sweep {
  return { name: 'delivery state sweep', run: () => sweepOrphanStates(db) };
}

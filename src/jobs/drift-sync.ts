/**
 * The periodic drift sync (every kubernetes.syncIntervalMs; off at 0): every INSTANTIATED
 * instance no operation holds, of every LCM major, read back from its VIM by lcm/sync.ts (only
 * drivers whose VIM changes instances by itself answer). Idempotent, so every worker process
 * runs it; one instance whose VIM cannot be reached is logged and the others are still synced.
 * A change is recorded, with its notifications, as an automatically invoked MODIFY_INFO op occ.
 */
import type { Logger } from 'pino';
import { LCM_STORES } from '../lcm/store.ts';
import { syncInstance } from '../lcm/sync.ts';
import type { JobDeps } from './deps.ts';
import { PollLoop } from './poll-loop.ts';

const PAGE = 200;

async function syncLook(deps: JobDeps, logger: Logger): Promise<void> {
  for (const store of LCM_STORES) {
    let after = '';
    for (;;) {
      const rows = await deps.db.kysely
        .selectFrom(store.instances)
        .select('id')
        .where('instantiation_state', '=', 'INSTANTIATED')
        .where('busy_op_occ_id', 'is', null)
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute();
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      for (const { id } of rows) {
        try {
          const outcome = await syncInstance(deps, store, id);
          if (outcome.synced)
            logger.info(
              { vnfInstanceId: id, vnfLcmOpOccId: outcome.vnfLcmOpOccId },
              'instance synced with its VIM',
            );
        } catch (error) {
          logger.warn({ vnfInstanceId: id, err: error }, 'drift sync of an instance failed');
        }
      }
    }
  }
}

/** The loop (a Loop of jobs/index.ts); nothing runs when the interval is 0. */
export function driftSync(deps: JobDeps): { name: string; start(): void; stop(): Promise<void> } {
  const interval = deps.config.kubernetes.syncIntervalMs;
  const loop =
    interval > 0
      ? new PollLoop({
          tick: () => syncLook(deps, deps.logger),
          intervalMs: interval,
          logger: deps.logger,
          failure: 'drift sync look failed',
        })
      : undefined;
  return {
    name: 'drift sync',
    start: () => loop?.start(),
    stop: async () => loop?.stop(),
  };
}

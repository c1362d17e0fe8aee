/**
 * One look of the driver health check (the worker in jobs/ runs it every fm.healthIntervalMs):
 * every INSTANTIATED instance whose VNF is STARTED and that no operation holds (an operation
 * changes its servers: health would see them half-made), of every LCM major, checked at most
 * fm.healthConcurrency at a time. One instance whose VIM cannot be reached is logged and the
 * others are still checked.
 */
import type { Logger } from 'pino';
import { LCM_STORES } from '../../lcm/store.ts';
import { checkInstanceHealth, type HealthDeps } from './check.ts';

const PAGE = 200;

export async function healthLook(deps: HealthDeps & { logger: Logger }): Promise<void> {
  const db = deps.db.kysely;
  for (const store of LCM_STORES) {
    let after = '';
    for (;;) {
      const rows = await db
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
      const ids = rows.map((r) => r.id);
      const workers = Array.from(
        { length: Math.min(deps.config.fm.healthConcurrency, ids.length) },
        async () => {
          for (let id = ids.shift(); id !== undefined; id = ids.shift()) {
            const instance = await store.findInstance(db, id);
            if (!instance || instance.busyOpOccId || instance.instantiatedVnfInfo?.vnfState !== 'STARTED')
              continue;
            try {
              const done = await checkInstanceHealth(deps, instance);
              if (done.raised || done.cleared)
                deps.logger.info({ instanceId: id, ...done }, 'VIM health alarms');
            } catch (err) {
              deps.logger.warn({ err, instanceId: id }, 'VIM health check of an instance failed');
            }
          }
        },
      );
      await Promise.all(workers);
      if (rows.length < PAGE) break;
    }
  }
}

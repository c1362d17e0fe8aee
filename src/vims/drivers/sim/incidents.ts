/**
 * Events of the simulated cloud, for fault injection: a host goes down (its servers go to
 * ERROR) or comes back up (the servers it took down return to their power state), a zone's
 * capacity is exhausted (placing there fails with Nova's "No valid host was found") or restored,
 * a server crashes (ERROR until it is healed). They are not part of any op occ: no journal.
 */
import type { Database } from '../../../store/db/database.ts';
import { inTransaction } from '../../../store/db/transaction.ts';

export const HOST_DOWN = 'host-down';
export const CRASHED = 'crashed';

export class SimNotFound extends Error {
  override name = 'SimNotFound';
}

export async function setHostState(db: Database, host: string, state: 'up' | 'down'): Promise<number> {
  return inTransaction(db, async (trx) => {
    const found = await trx
      .updateTable('sim_hosts')
      .set({ state })
      .where('name', '=', host)
      .executeTakeFirst();
    if (Number(found.numUpdatedRows) === 0) throw new SimNotFound(`Host ${host} does not exist.`);
    if (state === 'down') {
      const r = await trx
        .updateTable('sim_servers')
        .set({ status: 'ERROR', fault: `${HOST_DOWN}: compute host ${host} is down` })
        .where('host', '=', host)
        .where('status', '<>', 'ERROR')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    }
    const back = await trx
      .selectFrom('sim_servers')
      .select(['id', 'power'])
      .where('host', '=', host)
      .where('fault', 'like', `${HOST_DOWN}:%`)
      .execute();
    for (const s of back) {
      await trx
        .updateTable('sim_servers')
        .set({ status: s.power === 'off' ? 'SHUTOFF' : 'ACTIVE', fault: null })
        .where('id', '=', s.id)
        .execute();
    }
    return back.length;
  });
}

export async function setZoneExhausted(db: Database, zone: string, exhausted: boolean): Promise<void> {
  const r = await db.kysely
    .updateTable('sim_zones')
    .set({ exhausted })
    .where('name', '=', zone)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new SimNotFound(`Zone ${zone} does not exist.`);
}

export async function crashServer(db: Database, id: string, reason?: string): Promise<void> {
  const r = await db.kysely
    .updateTable('sim_servers')
    .set({ status: 'ERROR', fault: `${CRASHED}: ${reason ?? 'the server crashed'}` })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new SimNotFound(`Server ${id} does not exist.`);
}

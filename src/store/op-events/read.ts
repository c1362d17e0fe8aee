/** An op occ's timeline events after number `after`, in order, at most `limit`. */

import type { LcmOpEventsTable } from '../db/tables.ts';
import type { Executor } from '../db/transaction.ts';

export async function readOpEvents(
  db: Executor,
  opOccId: string,
  after: number,
  limit: number,
): Promise<LcmOpEventsTable[]> {
  const rows = await db
    .selectFrom('vnf_lcm_op_events')
    .selectAll()
    .where('op_occ_id', '=', opOccId)
    .where('seq', '>', after)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, seq: Number(r.seq) }));
}

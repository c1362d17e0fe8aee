/** An op occ's timeline events as the API shows them (rows of store/op-events turned back into events). */
import type { Executor } from '../../store/db/transaction.ts';
import { readOpEvents } from '../../store/op-events/read.ts';
import type { OpEvent } from './event.ts';

/** Events one read returns at most (a stream reads again at once when it got that many). */
export const READ_BATCH = 500;

export async function opEvents(
  db: Executor,
  opOccId: string,
  after = 0,
  limit = READ_BATCH,
): Promise<OpEvent[]> {
  const rows = await readOpEvents(db, opOccId, after, limit);
  return rows.map(
    (r) => ({ ...(JSON.parse(r.data) as object), seq: r.seq, at: r.at, kind: r.kind }) as OpEvent,
  );
}

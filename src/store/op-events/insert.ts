/** Writes numbered timeline events of an op occ (numbers taken with lock-seq.ts, in the same transaction). */

import type { LcmOpEventsTable } from '../db/tables.ts';
import type { Executor } from '../db/transaction.ts';

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits. */
const CHUNK = 200;

export async function insertOpEvents(trx: Executor, rows: readonly LcmOpEventsTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto('vnf_lcm_op_events')
      .values(rows.slice(i, i + CHUNK))
      .execute();
  }
}

/**
 * Takes an op occ's timeline counter for the transaction (creating it at 0): an upsert, so that on
 * PostgreSQL a second writer of the same op occ waits here until the first commits, and event
 * numbers commit in order. Answers the last number given and the output lines kept so far.
 */
import type { Executor } from '../db/transaction.ts';

export async function lockOpEventSeq(
  trx: Executor,
  opOccId: string,
): Promise<{ lastSeq: number; outputLines: number }> {
  const row = await trx
    .insertInto('vnf_lcm_op_event_seqs')
    .values({ op_occ_id: opOccId, last_seq: 0, output_lines: 0 })
    .onConflict((oc) =>
      oc.column('op_occ_id').doUpdateSet((eb) => ({ last_seq: eb.ref('vnf_lcm_op_event_seqs.last_seq') })),
    )
    .returning(['last_seq', 'output_lines'])
    .executeTakeFirstOrThrow();
  return { lastSeq: Number(row.last_seq), outputLines: Number(row.output_lines) };
}

/** Moves an op occ's timeline counter on, in the transaction that took it (lock-seq.ts). */
import type { Executor } from '../db/transaction.ts';

export async function setOpEventSeq(
  trx: Executor,
  opOccId: string,
  value: { lastSeq: number; outputLines: number },
): Promise<void> {
  await trx
    .updateTable('vnf_lcm_op_event_seqs')
    .set({ last_seq: value.lastSeq, output_lines: value.outputLines })
    .where('op_occ_id', '=', opOccId)
    .execute();
}

/**
 * PostgreSQL: numbers and writes an op occ's timeline events in one statement — the counter row
 * advanced by the batch's size (its row lock orders concurrent writers until commit, as
 * lock-seq.ts does), the events inserted after the number it had, and a NOTIFY on `channel` —
 * one round trip where taking, moving and inserting would be three, plus BEGIN and COMMIT when it
 * runs on its own. For batches whose numbering does not depend on what is stored (no bounded
 * output lines).
 */
import { sql } from 'kysely';
import type { Executor } from '../db/transaction.ts';

export interface UnnumberedEvent {
  at: string;
  kind: string;
  data: string;
}

export async function appendNumberedEvents(
  executor: Executor,
  opOccId: string,
  events: readonly UnnumberedEvent[],
  channel: string,
): Promise<void> {
  if (!events.length) return;
  const n = events.length;
  await sql`
    with counter as (
      insert into vnf_lcm_op_event_seqs (op_occ_id, last_seq, output_lines) values (${opOccId}, ${n}, 0)
      on conflict (op_occ_id) do update set last_seq = vnf_lcm_op_event_seqs.last_seq + excluded.last_seq
      returning last_seq
    ), inserted as (
      insert into vnf_lcm_op_events (op_occ_id, seq, at, kind, data)
      select ${opOccId}, counter.last_seq - ${n} + e.ord, e.at, e.kind, e.data
      from counter, unnest(${events.map((e) => e.at)}::text[], ${events.map((e) => e.kind)}::text[], ${events.map((e) => e.data)}::text[])
        with ordinality as e(at, kind, data, ord)
      returning 1
    )
    select pg_notify(${channel}, ${opOccId}) from (select count(*) from inserted) as done`.execute(executor);
}

/**
 * The timeline of each LCM op occ: its events in order (state changes, steps, management-driver
 * phases and output lines, zone reselection attempts, errors), kept after the op occ ends. The
 * progress an op occ records is overwritten by each retry and cleared when it ends, so the history
 * needs rows of its own. `vnf_lcm_op_event_seqs` holds each op occ's last sequence number: taking
 * the next one is an upsert of that row, which orders the writers of one op occ (on PostgreSQL the
 * second waits for the first to commit) so that events commit in sequence order and a reader that
 * resumes after number N never misses an event committed later with a smaller one.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vnf_lcm_op_event_seqs')
    .addColumn('op_occ_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('last_seq', 'integer', (c) => c.notNull())
    // Driver output lines recorded so far (they are bounded per op occ).
    .addColumn('output_lines', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('vnf_lcm_op_events')
    .addColumn('op_occ_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('kind', 'varchar(32)', (c) => c.notNull())
    // JSON: the event's fields besides seq, at and kind (src/lcm/timeline/event.ts).
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('vnf_lcm_op_events_pk', ['op_occ_id', 'seq'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vnf_lcm_op_events').execute();
  await db.schema.dropTable('vnf_lcm_op_event_seqs').execute();
}

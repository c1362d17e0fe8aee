/**
 * Auto-heal batches: heal-kind alarms of a VNF instance are collected here, in the transaction
 * that raises them, until the batch's window ends; the heal op occ is started in the transaction
 * that marks the batch started, so a crash anywhere leaves either a pending batch (healed after
 * restart) or a started one with its op occ — the heal happens exactly once. At most one batch
 * of an instance is pending (the unique partial index): later alarms merge into it.
 *
 * state: pending (waits for due_at and for the instance to be free), started (its op occ runs),
 * given-up (the instance's automatic heals failed auto-heal's limit of times: its alarms say so,
 * and no automatic heal starts until they are cleared).
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auto_heals')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('instance_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    // The LCM API major of the instance: whose store starts the heal.
    .addColumn('instance_major', 'varchar(8)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    // JSON arrays: the vnfcResourceInfo ids to heal, the alarms that asked for it.
    .addColumn('vnfc_ids', 'text', (c) => c.notNull())
    .addColumn('alarm_ids', 'text', (c) => c.notNull())
    // The whole VNF (SOL003 heal) rather than the VNFCs (SOL002).
    .addColumn('whole', 'boolean', (c) => c.notNull())
    .addColumn('due_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('op_occ_id', 'varchar(64)')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('auto_heals_one_pending')
    .on('auto_heals')
    .column('instance_id')
    .unique()
    .where(sql.ref('state'), '=', 'pending')
    .execute();
  await db.schema.createIndex('auto_heals_state_due').on('auto_heals').columns(['state', 'due_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auto_heals').execute();
}

/**
 * Fault management alarms (/vnffm/v1, SOL002/SOL003 Alarm), one row per alarm. `fingerprint` is
 * the source's dedup key (Alertmanager's alert fingerprint, a health check's key): while an
 * alarm is not cleared, a second raise with the same key in the project updates it instead of
 * duplicating it — the unique partial index is the database's own guarantee of that. A cleared
 * alarm keeps its key, so the same fault firing again opens a new alarm.
 *
 * Lists are newest first (alarmRaisedTime descending, ties by id), per project and across
 * projects: the two indexes serve that order. `version` is the ETag's and the compare-and-set
 * of acknowledgement and escalation.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alarms')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(255)', (c) => c.notNull())
    .addColumn('managed_object_id', 'varchar(64)', (c) => c.notNull())
    // The LCM API major of the managed VNF instance: its objectInstance link.
    .addColumn('instance_major', 'varchar(8)', (c) => c.notNull())
    .addColumn('vnfc_instance_ids', 'text', (c) => c.notNull())
    .addColumn('root_cause_faulty_resource', 'text', (c) => c.notNull())
    .addColumn('faulty_resource_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('alarm_raised_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('alarm_changed_time', 'varchar(32)')
    .addColumn('alarm_cleared_time', 'varchar(32)')
    .addColumn('alarm_acknowledged_time', 'varchar(32)')
    .addColumn('ack_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('perceived_severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('event_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('event_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('fault_type', 'text')
    .addColumn('probable_cause', 'text', (c) => c.notNull())
    .addColumn('is_root_cause', 'boolean', (c) => c.notNull())
    .addColumn('correlated_alarm_ids', 'text', (c) => c.notNull())
    .addColumn('fault_details', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('alarms_open_fingerprint')
    .on('alarms')
    .columns(['project_id', 'fingerprint'])
    .unique()
    .where(sql.ref('alarm_cleared_time'), 'is', null)
    .execute();
  await db.schema
    .createIndex('alarms_project_newest')
    .on('alarms')
    .columns(['project_id', 'alarm_raised_time', 'id'])
    .execute();
  await db.schema.createIndex('alarms_newest').on('alarms').columns(['alarm_raised_time', 'id']).execute();
  // An instance's alarms, newest first; and the open alarm of a source's fingerprint on it.
  await db.schema
    .createIndex('alarms_instance_newest')
    .on('alarms')
    .columns(['managed_object_id', 'alarm_raised_time', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alarms').execute();
}

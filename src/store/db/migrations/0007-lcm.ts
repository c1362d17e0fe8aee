/**
 * VNF lifecycle management, API major v2 (SOL002/SOL003 v3.3.1): VNF instances and LCM
 * operation occurrences. The op occ row is also the job a worker runs (job_state, lease_*),
 * and its progress (steps done, their outputs, the grant) lives beside it so that retry and
 * rollback resume exactly where it stopped.
 *
 * Every major has its own pair of tables with the same columns (v1 adds `vnf_instances_v1` /
 * `vnf_lcm_op_occs_v1` in its own migration): one engine works over both (src/lcm/store.ts).
 *
 * Busy rule: `vnf_instances_v2.busy_op_occ_id` names the op occ holding the instance (from the
 * API's accept until COMPLETED, FAILED or ROLLED_BACK; FAILED_TEMP keeps it). It is taken with
 * a conditional UPDATE; the unique partial index on op occs is the database's own guarantee
 * that an instance never has two unfinished operations.
 */
import { type Kysely, sql } from 'kysely';

export const UNFINISHED_STATES = ['STARTING', 'PROCESSING', 'ROLLING_BACK', 'FAILED_TEMP'] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function createLcmTables(db: Kysely<any>, major: string): Promise<void> {
  const instances = `vnf_instances_${major}`;
  const opOccs = `vnf_lcm_op_occs_${major}`;
  await db.schema
    .createTable(instances)
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('vnf_instance_name', 'text')
    .addColumn('vnf_instance_description', 'text')
    .addColumn('vnfd_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('vnf_pkg_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('vnf_provider', 'text', (c) => c.notNull())
    .addColumn('vnf_product_name', 'text', (c) => c.notNull())
    .addColumn('vnf_software_version', 'text', (c) => c.notNull())
    .addColumn('vnfd_version', 'text', (c) => c.notNull())
    .addColumn('instantiation_state', 'varchar(32)', (c) => c.notNull())
    .addColumn('instantiated_vnf_info', 'text')
    .addColumn('vim_connection_info', 'text', (c) => c.notNull())
    .addColumn('vnf_configurable_properties', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('extensions', 'text', (c) => c.notNull())
    .addColumn('busy_op_occ_id', 'varchar(64)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex(`${instances}_project`).on(instances).columns(['project_id', 'id']).execute();
  await db.schema.createIndex(`${instances}_vnfd`).on(instances).columns(['vnfd_id']).execute();
  await db.schema.createIndex(`${instances}_pkg`).on(instances).columns(['vnf_pkg_id']).execute();
  await db.schema
    .createIndex(`${instances}_state`)
    .on(instances)
    .columns(['instantiation_state', 'id'])
    .execute();

  await db.schema
    .createTable(opOccs)
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('vnf_instance_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('operation', 'varchar(32)', (c) => c.notNull())
    .addColumn('operation_state', 'varchar(32)', (c) => c.notNull())
    .addColumn('state_entered_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('start_time', 'varchar(32)', (c) => c.notNull())
    .addColumn('is_automatic_invocation', 'boolean', (c) => c.notNull())
    .addColumn('operation_params', 'text', (c) => c.notNull())
    .addColumn('is_cancel_pending', 'boolean', (c) => c.notNull())
    .addColumn('cancel_mode', 'varchar(16)')
    .addColumn('error', 'text')
    .addColumn('resource_changes', 'text')
    .addColumn('changed_info', 'text')
    .addColumn('changed_ext_connectivity', 'text')
    .addColumn('grant_id', 'varchar(64)')
    // The SOL003 GrantRequest and Grant, kept while the op occ may still be retried or rolled back.
    .addColumn('grant_request', 'text')
    .addColumn('grant', 'text')
    // Engine bookkeeping: the instance before the operation, the plan, steps done and their outputs.
    .addColumn('progress', 'text', (c) => c.notNull())
    .addColumn('job_state', 'varchar(16)')
    .addColumn('lease_owner', 'varchar(128)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex(`${opOccs}_project`).on(opOccs).columns(['project_id', 'id']).execute();
  await db.schema.createIndex(`${opOccs}_instance`).on(opOccs).columns(['vnf_instance_id', 'id']).execute();
  await db.schema.createIndex(`${opOccs}_jobs`).on(opOccs).columns(['job_state', 'lease_until']).execute();
  await db.schema.createIndex(`${opOccs}_state`).on(opOccs).columns(['operation_state', 'id']).execute();
  await db.schema.createIndex(`${opOccs}_operation`).on(opOccs).columns(['operation', 'id']).execute();
  // At most one unfinished op occ per instance, whatever the code above it does.
  await db.schema
    .createIndex(`${opOccs}_one_unfinished`)
    .on(opOccs)
    .column('vnf_instance_id')
    .unique()
    .where(sql.ref('operation_state'), 'in', UNFINISHED_STATES as unknown as string[])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see createLcmTables()
export async function up(db: Kysely<any>): Promise<void> {
  await createLcmTables(db, 'v2');
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vnf_lcm_op_occs_v2').execute();
  await db.schema.dropTable('vnf_instances_v2').execute();
}

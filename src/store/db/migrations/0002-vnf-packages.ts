/**
 * VNF packages (SOL005). The row is also the onboarding job: job_state, lease_owner and
 * lease_until let any worker claim it, and recovery find what a dead process left behind.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vnf_packages')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('onboarding_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('operational_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('usage_state', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_defined_data', 'text', (c) => c.notNull())
    .addColumn('checksum', 'text')
    .addColumn('vnfd_id', 'varchar(255)')
    .addColumn('vnf_provider', 'text')
    .addColumn('vnf_product_name', 'text')
    .addColumn('vnf_software_version', 'text')
    .addColumn('vnfd_version', 'text')
    .addColumn('software_images', 'text')
    .addColumn('additional_artifacts', 'text')
    .addColumn('entry_definitions', 'text')
    .addColumn('vnfd_model', 'text')
    .addColumn('artifact_paths', 'text')
    .addColumn('manifest_file', 'text')
    .addColumn('signing_certificate', 'text')
    .addColumn('onboarding_failure', 'text')
    .addColumn('package_size', 'bigint')
    .addColumn('job_state', 'varchar(16)')
    .addColumn('lease_owner', 'varchar(128)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upload_source', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('vnf_packages_project')
    .on('vnf_packages')
    .columns(['project_id', 'id'])
    .execute();
  await db.schema
    .createIndex('vnf_packages_states')
    .on('vnf_packages')
    .columns(['onboarding_state', 'operational_state'])
    .execute();
  await db.schema
    .createIndex('vnf_packages_jobs')
    .on('vnf_packages')
    .columns(['job_state', 'lease_until'])
    .execute();
  // vnfdId is unique per project, not globally; partial index on both SQLite and PostgreSQL.
  await db.schema
    .createIndex('vnf_packages_vnfd_id')
    .on('vnf_packages')
    .columns(['project_id', 'vnfd_id'])
    .unique()
    .where(sql.ref('vnfd_id'), 'is not', null)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vnf_packages').execute();
}

/**
 * The VIM registry (registered VIMs per project, credentials sealed; one default per project or
 * shared) and the simulated VIM's state: zones, hosts, flavors, images, stacks with their
 * servers, volumes, networks and ports, injected faults, and the journal of what each LCM op occ
 * changed (rollback replays it backwards).
 */
import { type Kysely, SqliteAdapter } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('vims')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('vim_type', 'varchar(128)', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('interface_info', 'text', (c) => c.notNull())
    .addColumn('extra', 'text', (c) => c.notNull())
    .addColumn('sealed_secrets', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('vims_name').on('vims').columns(['project_id', 'name']).unique().execute();
  await db.schema
    .createTable('default_vims')
    .addColumn('project_id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('vim_id', 'varchar(64)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sim_zones')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('exhausted', 'boolean', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sim_hosts')
    .addColumn('name', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('zone', 'varchar(128)', (c) => c.notNull())
    .addColumn('vcpus', 'integer', (c) => c.notNull())
    .addColumn('ram_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_gb', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(8)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sim_hosts_zone').on('sim_hosts').columns(['zone', 'name']).execute();
  await db.schema
    .createTable('sim_flavors')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('vcpus', 'integer', (c) => c.notNull())
    .addColumn('ram_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_gb', 'integer', (c) => c.notNull())
    .execute();

  // Resources: instance_id / op_occ_id are the tags (owner instance, creating op occ).
  const tagged = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('instance_id', 'varchar(64)')
      .addColumn('op_occ_id', 'varchar(64)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull());
  await tagged('sim_images')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('checksum', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('min_disk_gb', 'integer', (c) => c.notNull())
    .addColumn('min_ram_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_format', 'varchar(32)', (c) => c.notNull())
    .addColumn('container_format', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sim_images_name').on('sim_images').columns(['name']).execute();
  await tagged('sim_stacks')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(32)', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_stacks_instance')
    .on('sim_stacks')
    .columns(['instance_id'])
    .unique()
    .execute();
  await tagged('sim_servers')
    .addColumn('stack_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('vnfc_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('vdu_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('zone', 'varchar(128)', (c) => c.notNull())
    .addColumn('host', 'varchar(128)', (c) => c.notNull())
    .addColumn('flavor_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('image_id', 'varchar(64)')
    .addColumn('vcpus', 'integer', (c) => c.notNull())
    .addColumn('ram_mb', 'integer', (c) => c.notNull())
    .addColumn('disk_gb', 'integer', (c) => c.notNull())
    .addColumn('cps', 'text', (c) => c.notNull())
    .addColumn('power', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('fault', 'text')
    .execute();
  await db.schema
    .createIndex('sim_servers_instance')
    .on('sim_servers')
    .columns(['instance_id', 'vnfc_id'])
    .execute();
  await db.schema.createIndex('sim_servers_host').on('sim_servers').columns(['host']).execute();
  await tagged('sim_volumes')
    .addColumn('stack_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('vnfc_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('storage_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('desc_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('size_gb', 'integer', (c) => c.notNull())
    .addColumn('image_id', 'varchar(64)')
    .addColumn('server_id', 'varchar(64)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_volumes_instance')
    .on('sim_volumes')
    .columns(['instance_id', 'vnfc_id'])
    .execute();
  await tagged('sim_networks')
    .addColumn('stack_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('desc_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('cidr', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sim_networks_instance').on('sim_networks').columns(['instance_id']).execute();
  await tagged('sim_ports')
    .addColumn('stack_id', 'varchar(64)')
    .addColumn('vnfc_id', 'varchar(64)')
    .addColumn('cpd_id', 'varchar(255)')
    .addColumn('network_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('ext_vl_id', 'varchar(255)')
    .addColumn('cp_config_id', 'varchar(255)')
    .addColumn('owned', 'boolean', (c) => c.notNull())
    .addColumn('server_id', 'varchar(64)')
    .addColumn('mac', 'varchar(32)', (c) => c.notNull())
    .addColumn('ips', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_ports_instance')
    .on('sim_ports')
    .columns(['instance_id', 'vnfc_id'])
    .execute();
  await db.schema.createIndex('sim_ports_network').on('sim_ports').columns(['network_id']).execute();

  await db.schema
    .createTable('sim_faults')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(64)', (c) => c.notNull())
    .addColumn('action', 'varchar(8)', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('remaining', 'integer', (c) => c.notNull())
    .addColumn('timeout_ms', 'integer')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sim_faults_kind').on('sim_faults').columns(['kind', 'created_at']).execute();

  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('sim_journal')
    .addColumn(
      'id',
      sqlite ? 'integer' : 'bigint',
      sqlite ? (c) => c.primaryKey().autoIncrement() : (c) => c.primaryKey().generatedByDefaultAsIdentity(),
    )
    .addColumn('instance_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('op_occ_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('table_name', 'varchar(32)', (c) => c.notNull())
    .addColumn('resource_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('sim_journal_op')
    .on('sim_journal')
    .columns(['instance_id', 'op_occ_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'sim_journal',
    'sim_faults',
    'sim_ports',
    'sim_networks',
    'sim_volumes',
    'sim_servers',
    'sim_stacks',
    'sim_images',
    'sim_flavors',
    'sim_hosts',
    'sim_zones',
    'default_vims',
    'vims',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

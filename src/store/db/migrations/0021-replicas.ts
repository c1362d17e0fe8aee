/**
 * The replica registry: one row per running `bosun serve` process (its lease-owner id, role,
 * version, host, pid, start and last sign of life), so that an operator sees the cluster from
 * any replica (`bosun status`). And the indexes that let the metrics read each job queue's
 * backlog — how many jobs are queued and since when the oldest waits — from the queued rows
 * alone: `(job_state, updated_at)` answers the count and the oldest without visiting the table.
 */
import type { Kysely } from 'kysely';

const JOB_TABLES = ['vnf_packages', 'vnf_lcm_op_occs_v2', 'vnf_lcm_op_occs_v1'] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('replicas')
    .addColumn('id', 'varchar(160)', (c) => c.primaryKey())
    .addColumn('role', 'varchar(16)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('hostname', 'varchar(255)', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('seen_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  for (const table of JOB_TABLES)
    await db.schema.createIndex(`${table}_backlog`).on(table).columns(['job_state', 'updated_at']).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of JOB_TABLES) await db.schema.dropIndex(`${table}_backlog`).execute();
  await db.schema.dropTable('replicas').execute();
}

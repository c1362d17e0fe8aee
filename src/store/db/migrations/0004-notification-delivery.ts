/**
 * Notification delivery: one row per subscription that has had something to deliver — its
 * lease (which worker delivers to it now), its back-off (FIFO: the whole subscription waits for
 * its head notification), and the counters and last outcome shown by the admin API. Delivered
 * outbox rows are deleted, so the counters live here.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notification_deliveries')
    .addColumn('subscription_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('lease_owner', 'varchar(128)')
    .addColumn('lease_until', 'varchar(32)')
    .addColumn('retry_at', 'varchar(32)')
    .addColumn('delivered', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_attempts', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'varchar(32)')
    .addColumn('last_delivered_at', 'varchar(32)')
    .execute();
  // The worker's scan: subscriptions with pending notifications, and each one's head (lowest id).
  await db.schema
    .createIndex('notification_outbox_pending')
    .on('notification_outbox')
    .columns(['state', 'subscription_id', 'id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notification_outbox_pending').execute();
  await db.schema.dropTable('notification_deliveries').execute();
}

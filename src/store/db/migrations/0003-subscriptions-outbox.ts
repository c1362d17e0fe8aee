/**
 * Subscriptions (every API; vnfpkgm first) and the transactional notification outbox: the code
 * that changes a resource inserts its notification rows in the same transaction; delivery
 * workers (issue 5) drain them per subscription in id order.
 */
import { type Kysely, SqliteAdapter } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('api', 'varchar(16)', (c) => c.notNull())
    .addColumn('major', 'varchar(8)', (c) => c.notNull())
    .addColumn('callback_uri', 'text', (c) => c.notNull())
    .addColumn('filter', 'text', (c) => c.notNull())
    .addColumn('authentication', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('subscriptions_project')
    .on('subscriptions')
    .columns(['api', 'project_id', 'id'])
    .execute();
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('notification_outbox')
    // SQLite: INTEGER PRIMARY KEY is the rowid (monotonic); PostgreSQL: a bigint identity.
    .addColumn(
      'id',
      sqlite ? 'integer' : 'bigint',
      sqlite ? (c) => c.primaryKey().autoIncrement() : (c) => c.primaryKey().generatedByDefaultAsIdentity(),
    )
    .addColumn('subscription_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('notification_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('api', 'varchar(16)', (c) => c.notNull())
    .addColumn('major', 'varchar(8)', (c) => c.notNull())
    .addColumn('notification_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .execute();
  await db.schema
    .createIndex('notification_outbox_fifo')
    .on('notification_outbox')
    .columns(['subscription_id', 'id'])
    .execute();
  await db.schema
    .createIndex('notification_outbox_due')
    .on('notification_outbox')
    .columns(['state', 'next_attempt_at'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('notification_outbox').execute();
  await db.schema.dropTable('subscriptions').execute();
}

/** Foundation: server keys (paging and token signing) and OAuth 2.0 clients. */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_keys')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('sealed_value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('auth_clients')
    .addColumn('client_id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('project_id', 'varchar(128)', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auth_clients').execute();
  await db.schema.dropTable('server_keys').execute();
}

/**
 * Race-free duplicate subscriptions, and the LCM v2 verbosity: `dedup_key` (sha-256 of callback
 * URI, normal filter and verbosity; see notify/subscriptions/dedup.ts) with a unique index per
 * project, API and major — two concurrent identical creations cannot both insert. Null keys
 * (subscriptions created while duplicates are allowed) are not constrained. Existing rows get
 * their key here; of pre-existing duplicates, the oldest keeps it.
 */
import type { Kysely } from 'kysely';
import { dedupKey } from '../../../notify/subscriptions/dedup.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('subscriptions').addColumn('dedup_key', 'varchar(64)').execute();
  await db.schema.alterTable('subscriptions').addColumn('verbosity', 'varchar(8)').execute();
  const rows: {
    id: string;
    project_id: string;
    api: string;
    major: string;
    callback_uri: string;
    filter: string;
  }[] = await db
    .selectFrom('subscriptions')
    .select(['id', 'project_id', 'api', 'major', 'callback_uri', 'filter'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const taken = new Set<string>();
  for (const row of rows) {
    const key = dedupKey({ callbackUri: row.callback_uri, filter: JSON.parse(row.filter) });
    const scoped = JSON.stringify([row.project_id, row.api, row.major, key]);
    if (taken.has(scoped)) continue;
    taken.add(scoped);
    await db.updateTable('subscriptions').set({ dedup_key: key }).where('id', '=', row.id).execute();
  }
  await db.schema
    .createIndex('subscriptions_dedup')
    .on('subscriptions')
    .columns(['project_id', 'api', 'major', 'dedup_key'])
    .unique()
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('subscriptions_dedup').execute();
  await db.schema.alterTable('subscriptions').dropColumn('verbosity').execute();
  await db.schema.alterTable('subscriptions').dropColumn('dedup_key').execute();
}

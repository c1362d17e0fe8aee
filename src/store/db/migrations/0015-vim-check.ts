/**
 * The VIM registry remembers its registration check: the zone names the VIM showed when it was
 * last checked (Tacker's placement_attr) and when its record last changed (updated_at).
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('vims').addColumn('zones', 'text').execute();
  await db.schema.alterTable('vims').addColumn('updated_at', 'text').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('vims').dropColumn('updated_at').execute();
  await db.schema.alterTable('vims').dropColumn('zones').execute();
}

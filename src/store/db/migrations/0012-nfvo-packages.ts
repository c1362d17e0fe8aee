/**
 * Packages fetched from an external NFVO remember the checksum the NFVO declared for them
 * (`<algorithm>:<hash>`), so that the same content is taken from the blob store, not fetched
 * again, when another project needs it.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('vnf_packages').addColumn('nfvo_checksum', 'text').execute();
  await db.schema
    .createIndex('vnf_packages_nfvo_checksum')
    .on('vnf_packages')
    .column('nfvo_checksum')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('vnf_packages_nfvo_checksum').execute();
  await db.schema.alterTable('vnf_packages').dropColumn('nfvo_checksum').execute();
}

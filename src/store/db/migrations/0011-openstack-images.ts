/**
 * Images the OpenStack driver put in (or found in) a cloud's Glance for VNF instances: one row
 * per image and instance using it. An image is deleted at terminate only when Bosun uploaded it
 * and no other instance still uses it; images of the cloud's own are never deleted.
 */
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('openstack_images')
    .addColumn('cloud', 'text', (c) => c.notNull())
    .addColumn('image_id', 'text', (c) => c.notNull())
    .addColumn('instance_id', 'text', (c) => c.notNull())
    .addColumn('op_occ_id', 'text', (c) => c.notNull())
    .addColumn('checksum', 'text', (c) => c.notNull())
    .addColumn('uploaded_by_bosun', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('openstack_images_pk', ['cloud', 'image_id', 'instance_id'])
    .execute();
  await db.schema
    .createIndex('openstack_images_instance')
    .on('openstack_images')
    .columns(['instance_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('openstack_images').execute();
}

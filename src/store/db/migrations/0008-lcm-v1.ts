/**
 * VNF lifecycle management, API major v1 (SOL002/SOL003 v2.6.1, API version 1.3.0): its own VNF
 * instance and LCM op occ tables, with exactly the columns of the v2 ones (0007-lcm.ts), so that
 * one engine and one runner serve both majors (src/lcm/store.ts) while a v1 instance stays
 * invisible under /vnflcm/v2 and the reverse. The busy rule and its partial unique index are the
 * same.
 */
import type { Kysely } from 'kysely';
import { createLcmTables } from './0007-lcm.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  await createLcmTables(db, 'v1');
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('vnf_lcm_op_occs_v1').execute();
  await db.schema.dropTable('vnf_instances_v1').execute();
}

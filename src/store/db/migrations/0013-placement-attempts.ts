/**
 * An op occ records every availability zone it tried when a zone had no room for a server (the
 * zone, the VIM's reason, where the VNFCs went next): JSON, null while it had to try none.
 */
import type { Kysely } from 'kysely';

const MAJORS = ['v1', 'v2'] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  for (const major of MAJORS) {
    await db.schema.alterTable(`vnf_lcm_op_occs_${major}`).addColumn('placement_attempts', 'text').execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const major of MAJORS) {
    await db.schema.alterTable(`vnf_lcm_op_occs_${major}`).dropColumn('placement_attempts').execute();
  }
}

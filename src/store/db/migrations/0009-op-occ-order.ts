/**
 * Op occ lists are newest first (start time descending, ties by id): an index per major that
 * serves that order within a project, and the same order across projects (auth mode none or
 * an admin), so a page reads its rows in index order instead of sorting the project's op occs.
 */
import type { Kysely } from 'kysely';

const MAJORS = ['v1', 'v2'] as const;

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types
export async function up(db: Kysely<any>): Promise<void> {
  for (const major of MAJORS) {
    const opOccs = `vnf_lcm_op_occs_${major}`;
    await db.schema
      .createIndex(`${opOccs}_project_newest`)
      .on(opOccs)
      .columns(['project_id', 'start_time', 'id'])
      .execute();
    await db.schema.createIndex(`${opOccs}_newest`).on(opOccs).columns(['start_time', 'id']).execute();
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const major of MAJORS) {
    const opOccs = `vnf_lcm_op_occs_${major}`;
    await db.schema.dropIndex(`${opOccs}_newest`).execute();
    await db.schema.dropIndex(`${opOccs}_project_newest`).execute();
  }
}

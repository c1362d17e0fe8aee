/**
 * Claiming a job whose lease lives in a lease row beside it (a subscription's deliveries): one
 * upsert that writes the lease row unless another worker holds a live lease or the job waits for
 * a retry. One statement: on PostgreSQL the conflicting row is locked and the condition
 * re-checked, so two workers can never both win. The row is written only for a job that exists,
 * so a claim racing the job's delete never re-creates its lease row: on PostgreSQL the key-share
 * lock waits for a delete in progress and then sees it (SQLite's writers are serial, so the
 * statement sees the delete or comes before it).
 */
import { type Kysely, sql } from 'kysely';
import type { Executor } from '../db/transaction.ts';
import { type LeaseTable, leaseUntil, namesOf, nowIso } from './table.ts';

/** The lease row and the jobs' table, as this statement sees them. */
interface LeaseRows {
  lease: { id: string; lease_owner: string | null; lease_until: string | null };
  jobs: { id: string };
}

/** Claims job `id` for `owner`; false when another worker holds it, it waits for a retry, or it is gone. */
export async function claimLease(
  executor: Executor,
  leases: LeaseTable,
  id: string,
  owner: string,
  leaseMs: number,
  keyShare: boolean,
): Promise<boolean> {
  const db = executor as unknown as Kysely<LeaseRows>;
  const { table, key, notBefore } = namesOf(leases);
  const until = leaseUntil(leaseMs);
  const now = nowIso();
  /** A column of the existing lease row (the upsert's target, not the proposed one). */
  const existing = (column: string) => sql.ref<string | null>(`${table}.${column}`);
  let job = db
    .selectFrom(leases.jobs.table as 'jobs')
    .select((eb) => [
      eb.ref(leases.jobs.key as 'id').as(key),
      eb.val(owner).as('lease_owner'),
      eb.val(until).as('lease_until'),
    ])
    .where(leases.jobs.key as 'id', '=', id);
  if (keyShare) job = job.forKeyShare();
  const waiting = leases.notBefore
    ? [sql<boolean>`(${existing(notBefore)} is null or ${existing(notBefore)} <= ${now})`]
    : [];
  const row = await db
    .insertInto(table as 'lease')
    .columns([key as 'id', 'lease_owner', 'lease_until'])
    .expression(job)
    .onConflict((oc) =>
      oc
        .column(key as 'id')
        .doUpdateSet({ lease_owner: owner, lease_until: until })
        .where((eb) =>
          eb.and([
            sql<boolean>`(${existing('lease_until')} is null or ${existing('lease_until')} < ${now})`,
            ...waiting,
          ]),
        ),
    )
    .returning(key as 'id')
    .executeTakeFirst();
  return row !== undefined;
}

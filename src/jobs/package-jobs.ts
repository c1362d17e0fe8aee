/**
 * Finding and claiming onboarding jobs. The package row is the job: a worker claims a queued
 * job, or one whose lease expired (its worker died), with one conditional UPDATE that works on
 * both databases; PostgreSQL first skips rows another worker has locked.
 */
import { sql } from 'kysely';
import { leaseUntil } from '../packages/onboarding.ts';
import type { Database } from '../store/db/database.ts';

/** Ids of jobs that may be claimed now. */
export async function claimableJobs(db: Database, limit: number): Promise<string[]> {
  const now = new Date().toISOString();
  let query = db.kysely
    .selectFrom('vnf_packages')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('job_state', '=', 'queued'),
        eb.and([eb('job_state', '=', 'running'), eb('lease_until', '<', now)]),
      ]),
    )
    .orderBy('updated_at')
    .limit(limit);
  if (db.dialect === 'postgres') query = query.modifyEnd(sql`for update skip locked`);
  return (await query.execute()).map((r) => r.id);
}

/** Claims a job for `owner`; false when another worker got it first. */
export async function claimJob(db: Database, id: string, owner: string, leaseMs: number): Promise<boolean> {
  const now = new Date().toISOString();
  const result = await db.kysely
    .updateTable('vnf_packages')
    .set((eb) => ({
      job_state: 'running',
      lease_owner: owner,
      lease_until: leaseUntil(leaseMs),
      attempts: eb('attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb('job_state', '=', 'queued'),
        eb.and([eb('job_state', '=', 'running'), eb('lease_until', '<', now)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Streamed uploads whose process stopped heartbeating: the body is gone for good. */
export async function interruptedUploads(db: Database): Promise<string[]> {
  const now = new Date().toISOString();
  const rows = await db.kysely
    .selectFrom('vnf_packages')
    .select('id')
    .where('job_state', '=', 'uploading')
    .where('lease_until', '<', now)
    .execute();
  return rows.map((r) => r.id);
}

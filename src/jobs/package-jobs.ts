/**
 * The onboarding job queue: the package row is the job. A queued job, or a running one whose lease
 * expired (its worker died), may be claimed: the job starts over, up to the worker's attempt
 * limit. A streamed upload holds its lease in the uploading state.
 */
import type { Database } from '../store/db/database.ts';
import type { Executor } from '../store/db/transaction.ts';
import { claimableJobs, claimJob } from '../store/queue/claim.ts';
import { renewJobLease } from '../store/queue/heartbeat.ts';
import type { JobTable } from '../store/queue/table.ts';
import { abandonedJobs } from '../store/queue/take-over.ts';

export const PACKAGE_JOBS: JobTable = {
  table: 'vnf_packages',
  leasedStates: ['uploading', 'running'],
  reclaimExpired: true,
};

/** Ids of jobs that may be claimed now. */
export function claimablePackageJobs(db: Database, limit: number): Promise<string[]> {
  return claimableJobs(db.kysely, PACKAGE_JOBS, limit, db.dialect === 'postgres');
}

/** Claims a job for `owner`; false when another worker got it first. */
export function claimPackageJob(db: Database, id: string, owner: string, leaseMs: number): Promise<boolean> {
  return claimJob(db.kysely, PACKAGE_JOBS, id, owner, leaseMs);
}

/** Extends the lease on a package's upload or onboarding job; false when `owner` lost it. */
export function renewPackageLease(
  db: Executor,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  return renewJobLease(db, PACKAGE_JOBS, id, owner, leaseMs);
}

/** Streamed uploads whose process stopped heartbeating: the body is gone for good. */
export async function interruptedUploads(db: Database): Promise<string[]> {
  return (await abandonedJobs(db.kysely, PACKAGE_JOBS, 'uploading')).map((job) => job.id);
}

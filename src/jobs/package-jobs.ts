/**
 * Finding and claiming onboarding jobs (the package row is the job, packages/onboarding.ts
 * PACKAGE_JOBS), and the streamed uploads whose process died.
 */
import { PACKAGE_JOBS } from '../packages/onboarding.ts';
import type { Database } from '../store/db/database.ts';
import { claimableJobs, claimJob } from '../store/queue/claim.ts';
import { abandonedJobs, takeOverJob } from '../store/queue/take-over.ts';

/** Ids of jobs that may be claimed now. */
export function claimablePackageJobs(db: Database, limit: number): Promise<string[]> {
  return claimableJobs(db.kysely, PACKAGE_JOBS, limit, db.dialect === 'postgres');
}

/** Claims a job for `owner`; false when another worker got it first. */
export function claimPackageJob(db: Database, id: string, owner: string, leaseMs: number): Promise<boolean> {
  return claimJob(db.kysely, PACKAGE_JOBS, id, owner, leaseMs);
}

/** Streamed uploads whose process stopped heartbeating: the body is gone for good. */
export async function interruptedUploads(db: Database): Promise<string[]> {
  return (await abandonedJobs(db.kysely, PACKAGE_JOBS, 'uploading')).map((job) => job.id);
}

/** Takes an interrupted upload over to end it (one taker only); false when another did first. */
export function takeOverUpload(db: Database, id: string, owner: string, leaseMs: number): Promise<boolean> {
  return takeOverJob(db.kysely, PACKAGE_JOBS, id, 'uploading', owner, leaseMs);
}

/**
 * A job queue is a table whose rows are the jobs (the package row is its onboarding job, the op
 * occ row is its LCM job), with the same job columns: `job_state` (queued → running, or
 * uploading while a request streams the content in), `lease_owner`, `lease_until` and
 * `attempts`, keyed by `id`. The queue operations (claim, heartbeat, take-over) are written
 * once over this descriptor.
 */
import type { Kysely } from 'kysely';
import type { Executor } from '../db/transaction.ts';

export interface JobTable {
  /** The table's name: vnf_packages, vnf_lcm_op_occs_v2, vnf_lcm_op_occs_v1. */
  table: string;
  /** The job states in which a lease is held (and may be renewed or taken over). */
  leasedStates: readonly string[];
  /**
   * Whether a running job whose lease expired may be claimed again like a queued one (the job
   * starts over), rather than only taken over for recovery.
   */
  reclaimExpired: boolean;
}

/** The job columns every queue table has. */
interface JobColumns {
  id: string;
  job_state: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  attempts: number;
  updated_at: string;
}

/**
 * The executor typed as over one job table: `jobs.table` is the real name in the SQL, the type
 * only says which columns it has.
 */
export function queueOf(db: Executor, jobs: JobTable): { db: Kysely<{ job: JobColumns }>; table: 'job' } {
  return { db: db as unknown as Kysely<{ job: JobColumns }>, table: jobs.table as 'job' };
}

export const nowIso = () => new Date().toISOString();
export const leaseUntil = (leaseMs: number) => new Date(Date.now() + leaseMs).toISOString();

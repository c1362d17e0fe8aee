/**
 * A job queue is a table whose rows hold the job columns: `lease_owner` and `lease_until`, keyed
 * by one column, and (where the row is the job: the package row is its onboarding job, the op occ
 * row is its LCM job) `job_state` (queued → running, or uploading while a request streams the
 * content in) and `attempts`. Where the job lives elsewhere, a lease row beside it holds the lease
 * (a subscription's notification deliveries). The queue operations (claim, heartbeat, complete,
 * fail, take-over) are written once over these descriptors, one file each.
 */
import type { Kysely } from 'kysely';
import type { Executor } from '../db/transaction.ts';

/** What every queue operation after the claim needs to know of the table. */
export interface QueueTable {
  /** The table's name: vnf_packages, vnf_lcm_op_occs_v2, notification_deliveries. */
  table: string;
  /** The column that names the job: `id`, or the subscription a lease row is for. */
  key: string;
  /**
   * The job states in which a lease is held (and may be renewed or taken over); absent when the
   * table has no `job_state` (a lease row: holding the lease is running the job).
   */
  leasedStates?: readonly string[];
  /** The column saying when a failed job may be claimed again, where the queue backs off. */
  notBefore?: string;
  /** Every change of the row stamps `updated_at` and increments `version` (the API's ETag). */
  versioned: boolean;
}

/** A table whose rows are the jobs. */
export interface JobTable extends QueueTable {
  leasedStates: readonly string[];
  /**
   * Whether a running job whose lease expired may be claimed again like a queued one (the job
   * starts over), rather than only taken over for recovery.
   */
  reclaimExpired: boolean;
}

/** Lease rows beside the jobs' own rows: one per job, written at its first claim. */
export interface LeaseTable extends QueueTable {
  /** The jobs' table: a lease row is written only for a job that exists there. */
  jobs: { table: string; key: string };
}

/** The job columns, as the SQL of store/queue/ sees every queue table. */
interface JobColumns {
  id: string;
  job_state: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  not_before: string | null;
  attempts: number;
  updated_at: string;
  version: number;
}

/** The descriptor's names typed as the columns the SQL of store/queue/ sees. */
export function namesOf(queue: QueueTable): { table: 'job'; key: 'id'; notBefore: 'not_before' } {
  return {
    table: queue.table as 'job',
    key: queue.key as 'id',
    notBefore: (queue.notBefore ?? 'not_before') as 'not_before',
  };
}

/**
 * The executor typed as over one job table: the descriptor's names are the real ones in the SQL,
 * the type only says which columns there are.
 */
export function queueOf(db: Executor, queue: QueueTable) {
  return { db: db as unknown as Kysely<{ job: JobColumns }>, ...namesOf(queue) };
}

export const nowIso = () => new Date().toISOString();
export const leaseUntil = (leaseMs: number) => new Date(Date.now() + leaseMs).toISOString();

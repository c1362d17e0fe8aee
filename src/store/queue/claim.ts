/**
 * Claiming jobs: the ids that may be claimed now (PostgreSQL skips rows another worker is
 * claiming), then one conditional UPDATE per job, so that of several workers exactly one wins.
 * A claim counts an attempt.
 */
import { type ExpressionBuilder, sql } from 'kysely';
import type { Executor } from '../db/transaction.ts';
import { type JobTable, leaseUntil, namesOf, nowIso, queueOf } from './table.ts';

type JobRows = ExpressionBuilder<
  { job: { job_state: string | null; lease_until: string | null; not_before: string | null } },
  'job'
>;

/**
 * Queued, or (where the queue allows it) running under a lease that expired; and not waiting
 * for a retry where the queue backs off.
 */
function claimableNow(jobs: JobTable, now: string) {
  const { notBefore } = namesOf(jobs);
  return (eb: JobRows) => {
    const state = jobs.reclaimExpired
      ? eb.or([
          eb('job_state', '=', 'queued'),
          eb.and([eb('job_state', '=', 'running'), eb('lease_until', '<', now)]),
        ])
      : eb('job_state', '=', 'queued');
    return jobs.notBefore
      ? eb.and([state, eb.or([eb(notBefore, 'is', null), eb(notBefore, '<=', now)])])
      : state;
  };
}

/** The query of up to `limit` jobs' ids that may be claimed now, oldest change first, none of `except`. */
function dueJobs(
  executor: Executor,
  jobs: JobTable,
  limit: number,
  skipLocked: boolean,
  except: readonly string[],
) {
  const { db, table, key } = queueOf(executor, jobs);
  let query = db
    .selectFrom(table)
    .select(key)
    .where(claimableNow(jobs, nowIso()))
    .orderBy('updated_at')
    .limit(limit);
  if (except.length) query = query.where(key, 'not in', [...except]);
  return skipLocked ? query.modifyEnd(sql`for update skip locked`) : query;
}

/** Ids of up to `limit` jobs that may be claimed now, oldest change first. */
export async function claimableJobs(
  executor: Executor,
  jobs: JobTable,
  limit: number,
  skipLocked: boolean,
): Promise<string[]> {
  return (await dueJobs(executor, jobs, limit, skipLocked, []).execute()).map((r) => r.id);
}

/** Claims job `id` for `owner`; false when another worker got it first. */
export async function claimJob(
  executor: Executor,
  jobs: JobTable,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const { db, table, key } = queueOf(executor, jobs);
  const result = await db
    .updateTable(table)
    .set((eb) => ({
      job_state: 'running',
      lease_owner: owner,
      lease_until: leaseUntil(leaseMs),
      attempts: eb('attempts', '+', 1),
    }))
    .where(key, '=', id)
    .where(claimableNow(jobs, nowIso()))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Claims up to `limit` jobs for `owner` in one statement, oldest change first, and answers their
 * ids: the set-based claim. On PostgreSQL the rows other workers are claiming at the same moment
 * are skipped (FOR UPDATE SKIP LOCKED in the subquery), so workers of several processes never
 * wait on each other nor lose a claim they were racing for.
 */
export async function claimJobs(
  executor: Executor,
  jobs: JobTable,
  limit: number,
  owner: string,
  leaseMs: number,
  skipLocked: boolean,
  /** Jobs this process runs already (a lease of theirs that lapsed is not a job to start again). */
  running: readonly string[] = [],
): Promise<string[]> {
  if (limit <= 0) return [];
  const { db, table, key } = queueOf(executor, jobs);
  const due = dueJobs(executor, jobs, limit, skipLocked, running);
  const rows = await db
    .updateTable(table)
    .set((eb) => ({
      job_state: 'running',
      lease_owner: owner,
      lease_until: leaseUntil(leaseMs),
      attempts: eb('attempts', '+', 1),
    }))
    .where(key, 'in', due)
    // Checked again on the row as it is when locked: a job another worker claimed meanwhile is not taken.
    .where(claimableNow(jobs, nowIso()))
    .returning(key)
    .execute();
  return rows.map((r) => r.id);
}

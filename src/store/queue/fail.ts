/**
 * Failing a job's attempt: the worker stops without finishing it (a failed delivery backs off, a
 * worker stopping hands its operation back), so the lease is released and the job goes back to
 * the queue, claimable again at once or, where the queue backs off, from `retryAt` on.
 */
import type { Executor } from '../db/transaction.ts';
import { type RowChange, releaseJob } from './release.ts';
import type { QueueTable } from './table.ts';

export interface JobFailure {
  /** Not claimed again before this time (ISO); only for a queue with a `notBefore` column. */
  retryAt?: string;
  /** The row's own change (the error, the progress to resume from). */
  change?: RowChange;
}

/** False when `owner` no longer holds job `id` (it was taken over) or the row moved on. */
export async function failJob(
  executor: Executor,
  queue: QueueTable,
  id: string,
  owner: string,
  failure: JobFailure = {},
): Promise<boolean> {
  if (failure.retryAt !== undefined && !queue.notBefore)
    throw new Error(`the ${queue.table} queue does not back off: a failed job is claimable at once`);
  const queued = {
    lease_owner: null,
    lease_until: null,
    ...(queue.leasedStates ? { job_state: 'queued' } : {}),
    ...(queue.notBefore ? { [queue.notBefore]: failure.retryAt ?? null } : {}),
  };
  return await releaseJob(executor, queue, id, owner, queued, failure.change ?? {});
}

/**
 * Completing a job: its worker is done with it (the row's change says how it ended: onboarded
 * or failed back to CREATED, COMPLETED or FAILED_TEMP, or a delivery session's end), so the lease
 * is released and the job leaves the queue. The row's change may queue its next job (an upload
 * that completes queues the package's validation).
 */
import type { Executor } from '../db/transaction.ts';
import { type RowChange, releaseJob } from './release.ts';
import type { QueueTable } from './table.ts';

/** False when `owner` no longer holds job `id` (it was taken over) or the row moved on. */
export function completeJob(
  executor: Executor,
  queue: QueueTable,
  id: string,
  owner: string,
  change: RowChange = {},
): Promise<boolean> {
  const done = { lease_owner: null, lease_until: null, ...(queue.leasedStates ? { job_state: null } : {}) };
  return releaseJob(executor, queue, id, owner, done, change);
}

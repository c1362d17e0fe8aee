/**
 * In-process signals from the API to the runners of the same process: work was queued (an op
 * occ, a retry, a rollback) — look now rather than at the next poll — and a cancel was requested —
 * a FORCEFUL one aborts the step in flight now rather than at the next heartbeat. Runners in other
 * processes see both at their poll interval and heartbeat.
 */
import type { CancelMode } from './model.ts';

const wakers = new Set<() => void>();
const cancellers = new Set<(opOccId: string, mode: CancelMode) => void>();

export function onWake(listener: () => void): () => void {
  wakers.add(listener);
  return () => wakers.delete(listener);
}

export function wakeRunners(): void {
  for (const listener of wakers) listener();
}

export function onCancel(listener: (opOccId: string, mode: CancelMode) => void): () => void {
  cancellers.add(listener);
  return () => cancellers.delete(listener);
}

export function cancelRequested(opOccId: string, mode: CancelMode): void {
  for (const listener of cancellers) listener(opOccId, mode);
}

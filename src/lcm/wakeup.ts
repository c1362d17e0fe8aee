/**
 * In-process wake-ups: the API accepted an op occ (or a retry, rollback, cancel) and the runners
 * of this process look for work at once instead of at their next poll. Runners in other
 * processes find it at their poll interval.
 */
const listeners = new Set<() => void>();

export function onWake(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function wakeRunners(): void {
  for (const listener of listeners) listener();
}

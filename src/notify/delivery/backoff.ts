/**
 * Retry delays: exponential (initial × 2^(failures−1), capped) with "equal jitter" — half the
 * delay fixed, half random — so that the subscribers of a receiver that came back do not all
 * retry at the same instant, while a retry never comes much earlier than planned.
 */
export interface BackoffPolicy {
  initialBackoffMs: number;
  maxBackoffMs: number;
}

/** Delay before the next attempt after `failures` (≥ 1) failed ones. */
export function backoffDelay(
  policy: BackoffPolicy,
  failures: number,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 40);
  const ceiling = Math.min(policy.maxBackoffMs, policy.initialBackoffMs * 2 ** exponent);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * Time spent waiting for each OpenStack service, summed over the process's calls: what the
 * OpenStack benchmark subtracts from an operation's duration to find Bosun's own share.
 */
import type { ServiceType } from './errors.ts';

export type ServiceTimes = Record<ServiceType, { calls: number; ms: number }>;

const empty = (): ServiceTimes => ({
  identity: { calls: 0, ms: 0 },
  compute: { calls: 0, ms: 0 },
  orchestration: { calls: 0, ms: 0 },
  image: { calls: 0, ms: 0 },
  network: { calls: 0, ms: 0 },
});

let totals = empty();

/** `calls` 0: time spent waiting on the service between calls (polling a stack). */
export function recordServiceTime(service: ServiceType, ms: number, calls = 1): void {
  totals[service].calls += calls;
  totals[service].ms += ms;
}

/** The totals so far, and a fresh start. */
export function takeServiceTimes(): ServiceTimes {
  const taken = totals;
  totals = empty();
  return taken;
}

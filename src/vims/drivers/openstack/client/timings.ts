/**
 * Time spent waiting for each OpenStack service, summed over the process's calls, and the time
 * during which at least one call (or a wait for Heat) was in flight: what the OpenStack
 * benchmark subtracts from an operation's duration to find Bosun's own share. Calls made in
 * parallel overlap, so the per-service sums can exceed the time waited.
 */
import type { ServiceType } from './errors.ts';

export type ServiceTimes = Record<ServiceType, { calls: number; ms: number }>;

export interface TakenTimes {
  services: ServiceTimes;
  /** Wall time with at least one call or wait in flight. */
  waitingMs: number;
}

const empty = (): ServiceTimes => ({
  identity: { calls: 0, ms: 0 },
  compute: { calls: 0, ms: 0 },
  orchestration: { calls: 0, ms: 0 },
  image: { calls: 0, ms: 0 },
  network: { calls: 0, ms: 0 },
});

let totals = empty();
let inFlight = 0;
let waitingSince = 0;
let waitingMs = 0;

/** Starts waiting on a service; the returned function ends it, recording the time. */
export function waitOn(service: ServiceType, calls = 1): () => void {
  const started = performance.now();
  if (inFlight++ === 0) waitingSince = started;
  return () => {
    const now = performance.now();
    totals[service].calls += calls;
    totals[service].ms += now - started;
    if (--inFlight === 0) waitingMs += now - waitingSince;
  };
}

/** The totals so far, and a fresh start. */
export function takeServiceTimes(): TakenTimes {
  const now = performance.now();
  const taken = { services: totals, waitingMs: waitingMs + (inFlight > 0 ? now - waitingSince : 0) };
  totals = empty();
  waitingMs = 0;
  if (inFlight > 0) waitingSince = now;
  return taken;
}

/**
 * Every background worker, periodic sweep and periodic look this server runs: adding one is one
 * line here (a function from the runtime's services to a `Worker` for jobs/runner.ts, to a
 * `Sweep` for the janitor, or to a `Loop` with its own schedule). The composition root starts
 * the janitor, the workers and the loops in this order and stops them in reverse.
 */

import { deliveryStateSweep } from './delivery-sweep.ts';
import { deliveryWorker } from './delivery-worker.ts';
import type { JobDeps } from './deps.ts';
import { driftSync } from './drift-sync.ts';
import { FmWorkers } from './fm-workers.ts';
import type { Sweep } from './janitor.ts';
import { lcmWorker } from './lcm-worker.ts';
import { onboardingWorker } from './onboarding-worker.ts';
import { packageBlobSweep } from './package-sweep.ts';
import { replicaSweep } from './replica-sweep.ts';
import type { Worker } from './runner.ts';

/**
 * Stopped in reverse: the LCM operations first (their notifications reach the outbox), then
 * delivery and onboarding.
 */
export const WORKERS = {
  onboarding: onboardingWorker,
  delivery: deliveryWorker,
  lcm: lcmWorker,
} as const satisfies Record<string, (deps: JobDeps) => Worker>;

export const SWEEPS: readonly ((deps: JobDeps) => Sweep)[] = [
  packageBlobSweep,
  deliveryStateSweep,
  replicaSweep,
];

/** Periodic looks on their own schedules (idempotent, so every worker process runs them). */
export interface Loop {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

export const LOOPS: readonly ((deps: JobDeps) => Loop)[] = [(deps) => new FmWorkers(deps), driftSync];

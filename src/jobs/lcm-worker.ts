/**
 * The LCM operation worker: the op occ row is the job. It claims queued op occs of every major,
 * runs them with the engine, and watches for a FORCEFUL cancel (in this process at once, from
 * other replicas at the heartbeat). An op occ whose worker stopped heartbeating (it crashed, was
 * killed, or the machine died) is taken over by the next worker that looks and ended as SOL003
 * asks after a VNFM restart: STARTING → ROLLED_BACK (nothing was changed yet), PROCESSING and
 * ROLLING_BACK → FAILED_TEMP, with an error saying so. At shutdown an operation goes back to the
 * queue at its next step boundary; one still in a step after server.shutdownTimeoutMs is
 * abandoned (its lease expires and the next worker ends it as after a crash).
 */
import type { Logger } from 'pino';
import { runOpOcc } from '../lcm/engine.ts';
import type { EngineDeps } from '../lcm/engine-deps.ts';
import type { CancelMode } from '../lcm/model.ts';
import { ABANDONED_TO } from '../lcm/op-states.ts';
import { PgWakeupListener } from '../lcm/pg-wakeup.ts';
import { parseProgress } from '../lcm/progress.ts';
import { LCM_STORES, type LcmStore } from '../lcm/store.ts';
import { transition } from '../lcm/transition.ts';
import { onCancel, onWake } from '../lcm/wakeup.ts';
import type { OperationState } from '../sol/lcm-operations.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import type { AbandonedJob } from '../store/queue/take-over.ts';
import type { JobDeps } from './deps.ts';
import type { Job, Worker } from './runner.ts';

const owner = PROCESS_OWNER;

/** A running op occ: what aborts it, and why (the first reason sticks). */
interface Running {
  store: LcmStore;
  cancel: AbortController;
  reason?: 'lease' | 'cancel';
}

export function lcmWorker(deps: JobDeps, stores: readonly LcmStore[] = LCM_STORES): Worker {
  const engine = deps.engine;
  const { db, config, logger } = engine;
  const leaseMs = config.worker.leaseMs;
  const running = new Map<string, Running>();
  /** The store of each op occ found claimable (the ids are unique across majors). */
  const storeOf = new Map<string, LcmStore>();

  const cancel = (id: string, mode: CancelMode | undefined) => {
    const job = running.get(id);
    if (mode !== 'FORCEFUL' || !job || job.reason) return;
    job.reason = 'cancel';
    job.cancel.abort(new Error('cancelled'));
  };

  async function run(job: Job): Promise<void> {
    const store = storeOf.get(job.id);
    if (!store) return;
    const state: Running = { store, cancel: new AbortController() };
    running.set(job.id, state);
    const lost = () => {
      state.reason ??= 'lease';
    };
    job.signal.addEventListener('abort', lost);
    try {
      await runOpOcc(engine, store, job.id, owner, {
        signal: AbortSignal.any([job.signal, state.cancel.signal]),
        abortReason: () => state.reason,
        stopping: job.stopping,
      });
    } catch (err) {
      logger.error({ err, vnfLcmOpOccId: job.id }, 'LCM operation crashed');
    } finally {
      job.signal.removeEventListener('abort', lost);
      running.delete(job.id);
      storeOf.delete(job.id);
    }
  }

  return {
    name: 'LCM runner',
    concurrency: config.lcm.concurrency,
    stopGraceMs: config.server.shutdownTimeoutMs,
    // Takes over and ends the op occs whose worker stopped heartbeating.
    recover: async () => {
      for (const store of stores) {
        for (const dead of await store.abandoned(db.kysely)) {
          if (running.has(dead.id)) continue;
          if (await store.takeOver(db.kysely, dead.id, owner, leaseMs)) {
            await recoverOpOcc(engine, logger, store, dead);
          }
        }
      }
    },
    claimable: async (limit) => {
      storeOf.clear();
      const ids: string[] = [];
      for (const store of stores) {
        for (const id of await store.claimable(db.kysely, limit, db.dialect === 'postgres')) {
          storeOf.set(id, store);
          ids.push(id);
        }
      }
      return ids;
    },
    claim: async (id) => {
      const store = storeOf.get(id);
      return store !== undefined && (await store.claim(db.kysely, id, owner, leaseMs));
    },
    claimMany: async (limit, runningHere) => {
      const claimed: string[] = [];
      for (const store of stores) {
        const ids = await store.claimMany(
          db.kysely,
          limit - claimed.length,
          owner,
          leaseMs,
          db.dialect === 'postgres',
          runningHere,
        );
        for (const id of ids) storeOf.set(id, store);
        claimed.push(...ids);
      }
      return claimed;
    },
    // The heartbeat also reads whether a FORCEFUL cancel was asked for (on another replica too).
    renew: async (id) => {
      const store = running.get(id)?.store;
      const state = store && (await store.heartbeat(db.kysely, id, owner, leaseMs));
      if (state?.cancelMode) cancel(id, state.cancelMode);
      return state !== undefined;
    },
    run,
    listen: (wake) => {
      const unsubscribe = [onWake(() => wake.wake()), onCancel(cancel)];
      const listener =
        db.dialect === 'postgres'
          ? new PgWakeupListener(config.database.url, { wake: () => wake.wake(), cancel }, logger)
          : undefined;
      listener?.start();
      return async () => {
        for (const stop of unsubscribe) stop();
        await listener?.stop();
      };
    },
  };
}

/** Ends an op occ whose worker vanished. */
async function recoverOpOcc(
  engine: EngineDeps,
  logger: Logger,
  store: LcmStore,
  dead: AbandonedJob,
): Promise<void> {
  const { db } = engine;
  const id = dead.id;
  const work = await store.findOpOccWork(db.kysely, id);
  if (!work) return;
  const state = work.opOcc.operationState;
  const to = ABANDONED_TO[state];
  const progress = parseProgress(JSON.stringify(work.progress));
  const started = (steps: Record<string, string>) =>
    Object.entries(steps).find(([, s]) => s === 'started')?.[0];
  const compensating = started(progress.compensated);
  const step =
    state === 'ROLLING_BACK'
      ? compensating
        ? `rollback-${compensating}`
        : undefined
      : started(progress.steps);
  if (!to) {
    await store.complete(db.kysely, id, owner, {}, [state as OperationState]);
    return;
  }
  const detail =
    `The worker running this operation (${dead.owner}) stopped: its lease expired ` +
    `(${dead.leaseUntil}) while the operation was ${state}` +
    `${step ? `, in step ${step}` : ''}. ` +
    (to === 'ROLLED_BACK'
      ? 'Nothing had been changed yet: the operation is rolled back.'
      : 'Retry it (it resumes at that step), roll it back, or mark it failed.');
  if (step) progress.failedStep = step;
  const done = await transition(db, store, {
    opOccId: id,
    from: [state as OperationState],
    owner,
    endsJob: true,
    change: {
      operationState: to,
      error: { status: 500, title: 'Internal Server Error', detail, ...(step ? { step } : {}) },
      progress,
      isCancelPending: false,
    },
  });
  if (done)
    logger.warn({ vnfLcmOpOccId: id, from: state, to }, 'recovered an LCM operation whose worker stopped');
}

/**
 * The LCM operation runner: the op occ row is the job. A worker claims queued op occs with one
 * conditional UPDATE (PostgreSQL first skips rows another worker is claiming), heartbeats the
 * lease while the engine runs them, and watches for a FORCEFUL cancel. An op occ whose worker
 * stopped heartbeating (it crashed, was killed, or the machine died) is taken over by the next
 * worker that looks and ended as SOL003 asks after a VNFM restart: STARTING → ROLLED_BACK (nothing
 * was changed yet), PROCESSING and ROLLING_BACK → FAILED_TEMP, with an error saying so.
 */
import { runOpOcc } from '../lcm/engine.ts';
import type { EngineDeps } from '../lcm/engine-deps.ts';
import { ABANDONED_TO } from '../lcm/op-states.ts';
import { PgWakeupListener } from '../lcm/pg-wakeup.ts';
import { parseProgress } from '../lcm/progress.ts';
import { LCM_STORES, type LcmStore } from '../lcm/store.ts';
import { transition } from '../lcm/transition.ts';
import { onCancel, onWake } from '../lcm/wakeup.ts';
import type { OperationState } from '../sol/lcm-operations.ts';
import { HeldLease } from '../store/queue/lease.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import { JobRunner } from './runner.ts';

export class OpRunner {
  readonly owner = PROCESS_OWNER;
  readonly #deps: EngineDeps;
  readonly #stores: readonly LcmStore[];
  readonly #aborts = new Map<string, AbortController>();
  readonly #reasons = new Map<string, 'lease' | 'cancel'>();
  readonly #runner: JobRunner;
  /** The store of each op occ found claimable (the ids are unique across majors). */
  readonly #storeOf = new Map<string, LcmStore>();
  #unsubscribe: (() => void)[] = [];
  #listener: PgWakeupListener | undefined;

  constructor(deps: EngineDeps, stores: readonly LcmStore[] = LCM_STORES) {
    this.#deps = deps;
    this.#stores = stores;
    const { db, config, logger } = deps;
    const leaseMs = config.worker.leaseMs;
    this.#runner = new JobRunner(
      {
        recover: () => this.#recoverAbandoned(),
        claimable: async (limit) => {
          this.#storeOf.clear();
          const ids: string[] = [];
          for (const store of this.#stores) {
            for (const id of await store.claimable(db.kysely, limit, db.dialect === 'postgres')) {
              this.#storeOf.set(id, store);
              ids.push(id);
            }
          }
          return ids;
        },
        claim: async (id) => {
          const store = this.#storeOf.get(id);
          return store !== undefined && (await store.claim(db.kysely, id, this.owner, leaseMs));
        },
        run: async (id) => {
          const store = this.#storeOf.get(id);
          if (store) await this.#run(store, id);
        },
      },
      {
        concurrency: config.lcm.concurrency,
        intervalMs: config.worker.pollIntervalMs,
        logger,
        name: 'LCM runner',
      },
    );
  }

  start(): void {
    const cancel = (id: string, mode: string) => {
      const controller = this.#aborts.get(id);
      if (mode !== 'FORCEFUL' || !controller || this.#reasons.has(id)) return;
      this.#reasons.set(id, 'cancel');
      controller.abort(new Error('cancelled'));
    };
    this.#unsubscribe = [onWake(() => this.wake()), onCancel(cancel)];
    const { db, config, logger } = this.#deps;
    if (db.dialect === 'postgres') {
      this.#listener = new PgWakeupListener(config.database.url, { wake: () => this.wake(), cancel }, logger);
      this.#listener.start();
    }
    this.#runner.start();
  }

  wake(): void {
    this.#runner.wake();
  }

  /**
   * Stops claiming; the operations in progress go back to the queue at their next step boundary
   * (another worker resumes them). One still in a step after `graceMs` is abandoned: its lease
   * expires and the next worker ends it as after a crash.
   */
  async stop(graceMs = this.#deps.config.server.shutdownTimeoutMs): Promise<void> {
    // Stops claiming now; the operations in progress are awaited once the wake-ups are closed.
    const stopping = this.#runner.stop();
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    await this.#listener?.stop();
    const late = setTimeout(() => {
      for (const [id, controller] of this.#aborts) {
        this.#reasons.set(id, 'lease');
        controller.abort(new Error('worker stopped'));
      }
    }, graceMs);
    await stopping;
    clearTimeout(late);
  }

  /** Takes over and ends the op occs whose worker stopped heartbeating. */
  async #recoverAbandoned(): Promise<void> {
    const { db, config } = this.#deps;
    for (const store of this.#stores) {
      for (const dead of await store.abandoned(db.kysely)) {
        if (this.#runner.has(dead.id)) continue;
        if (await store.takeOver(db.kysely, dead.id, this.owner, config.worker.leaseMs)) {
          await this.#recover(store, dead);
        }
      }
    }
  }

  async #run(store: LcmStore, id: string): Promise<void> {
    const { db, config, logger } = this.#deps;
    const leaseMs = config.worker.leaseMs;
    const controller = new AbortController();
    const reasons = this.#reasons;
    this.#aborts.set(id, controller);
    // The heartbeat also reads whether a FORCEFUL cancel was asked for (on another replica too).
    const lease = new HeldLease(leaseMs, async () => {
      const state = await store.heartbeat(db.kysely, id, this.owner, leaseMs);
      if (state?.cancelMode === 'FORCEFUL' && !reasons.has(id)) {
        reasons.set(id, 'cancel');
        controller.abort(new Error('cancelled'));
      }
      return state !== undefined;
    });
    lease.signal.addEventListener('abort', () => {
      reasons.set(id, 'lease');
      controller.abort(lease.signal.reason);
    });
    try {
      await runOpOcc(this.#deps, store, id, this.owner, {
        signal: controller.signal,
        abortReason: () => reasons.get(id),
        stopping: () => this.#runner.stopped,
      });
    } catch (err) {
      logger.error({ err, vnfLcmOpOccId: id }, 'LCM operation crashed');
    } finally {
      lease.stop();
      this.#aborts.delete(id);
      this.#reasons.delete(id);
    }
  }

  /** Ends an op occ whose worker vanished. */
  async #recover(store: LcmStore, dead: { id: string; owner: string; leaseUntil: string }): Promise<void> {
    const { db, logger } = this.#deps;
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
      await store.complete(db.kysely, id, this.owner, {}, [state as OperationState]);
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
      owner: this.owner,
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
}

/**
 * Runs one claimed op occ: forward through its steps (STARTING, PROCESSING) or back through the
 * compensations of the steps that ran (ROLLING_BACK), through the saga runner, which records each
 * step's start, end and output in the op occ before moving on. A failure while STARTING ends it
 * ROLLED_BACK (nothing changed), unless the NFVO could not be asked (FAILED_TEMP, to be retried);
 * later it ends FAILED_TEMP with the error and the step, to be
 * retried (resuming at that step), rolled back or failed. Cancel is honoured at every step
 * boundary (and FORCEFUL aborts the step in flight through the signal).
 */

import { findHook } from '../drivers/mgmt/hook-runner.ts';
import { NfvoUnavailable } from '../grant/nfvo.ts';
import type { ResourceChanges } from '../sol/instance-model.ts';
import { ApiError } from '../sol/problem.ts';
import { holdVims } from '../vims/hold.ts';
import { appliedInstance } from './applied.ts';
import type { EngineDeps } from './engine-deps.ts';
import { CancelledError, LeaseLost, problemOf } from './errors.ts';
import { withHookChanges } from './hook-changes.ts';
import { lcmLinks } from './links.ts';
import type { CancelMode, VnfInstanceRecord } from './model.ts';
import { OPERATION_DEFS } from './operations/index.ts';
import { loadLcmPackage, refreshUsage } from './packages.ts';
import { compensate, runForward, type SagaControl, StepFailed } from './saga/runner.ts';
import { COMPENSATED, STARTING_STEPS, STEPS } from './steps/index.ts';
import { rollbackHook } from './steps/rollback-hooks.ts';
import type { Run, RunControl } from './steps/run.ts';
import type { LcmStore } from './store.ts';
import type { NewOpEvent } from './timeline/event.ts';
import { TimelineWriter } from './timeline/writer.ts';
import { transition } from './transition.ts';

export type { RunControl };

/** Thrown at a step boundary when the worker stops: the op occ goes back to the queue as it is. */
class Requeue extends Error {}

const EMPTY_CHANGES: ResourceChanges = {
  affectedVnfcs: [],
  affectedVirtualLinks: [],
  affectedVirtualStorages: [],
  affectedExtLinkPorts: [],
};

type Work = NonNullable<Awaited<ReturnType<LcmStore['findOpOccWork']>>>;

/** Runs op occ `id` if `owner` holds its lease. */
export async function runOpOcc(
  deps: EngineDeps,
  store: LcmStore,
  id: string,
  owner: string,
  control: RunControl,
): Promise<void> {
  const work = await store.findOpOccWork(deps.db.kysely, id);
  if (!work || work.opOcc.leaseOwner !== owner) return;
  const timeline = new TimelineWriter(
    { db: deps.db, logger: deps.logger, maxOutputLines: deps.config.lcm.timeline.maxOutputLines },
    id,
  );
  let run: Run;
  try {
    run = await prepare(deps, store, owner, control, work, timeline);
  } catch (err) {
    const failing = { deps, store, owner, control, opOcc: work.opOcc, progress: work.progress, timeline };
    await failed(failing, 'prepare', err);
    return;
  }
  if (run.opOcc.operationState === 'ROLLING_BACK') await rollback(run);
  else await forward(run);
}

async function prepare(
  deps: EngineDeps,
  store: LcmStore,
  owner: string,
  control: RunControl,
  work: Work,
  timeline: TimelineWriter,
): Promise<Run> {
  const { opOcc, progress } = work;
  const db = deps.db.kysely;
  const def = OPERATION_DEFS[opOcc.operation];
  const instance = await store.findInstance(db, opOcc.vnfInstanceId);
  if (!instance) throw new ApiError(404, `VNF instance ${opOcc.vnfInstanceId} no longer exists.`);
  const pkg = await loadLcmPackage(db, instance.vnfPkgId);
  if (!pkg) throw new ApiError(422, `The VNF package ${instance.vnfPkgId} of the instance no longer exists.`);
  const facts = progress.outputs.accept ?? {};
  const targetId = facts.targetPkgId;
  const target = targetId ? await loadLcmPackage(db, targetId) : pkg;
  if (!target) throw new ApiError(422, `The target VNF package ${targetId} no longer exists.`);
  const requested = def.flavourParam ? opOcc.operationParams[def.flavourParam] : undefined;
  const flavourId = def.flavourParam
    ? typeof requested === 'string'
      ? requested
      : undefined
    : instance.instantiatedVnfInfo?.flavourId;
  const vnfd = opOcc.operation === 'CHANGE_VNFPKG' ? target.vnfd : pkg.vnfd;
  const flavour = flavourId ? vnfd.flavours.find((f) => f.flavourId === flavourId) : undefined;
  if (def.granted && !flavour)
    throw new ApiError(422, `Flavour ${flavourId} is not in the VNFD ${vnfd.vnf.descriptorId}.`);
  return {
    deps,
    store,
    links: lcmLinks(store.major),
    owner,
    control,
    opOcc,
    progress,
    grantRequest: work.grantRequest,
    grant: work.grant,
    def,
    instance,
    pkg,
    target,
    flavour,
    facts,
    timeline,
    cancelMode: opOcc.isCancelPending ? (opOcc.cancelMode ?? 'GRACEFUL') : undefined,
  };
}

// ------------------------------------------------------------------ boundaries and persistence

/** What failure handling needs of a run (all of it is there even when preparing the run failed). */
type Failing = Pick<Run, 'deps' | 'store' | 'owner' | 'control' | 'opOcc' | 'progress' | 'timeline'>;

/** The Vnflcm hook a hook step runs (undefined for other steps). */
const HOOK_OF_STEP: Readonly<Record<string, string>> = {
  'start-hook': '_start',
  'end-hook': '_end',
  'rollback-start-hook': '_rollback_start',
  'rollback-end-hook': '_rollback_end',
};

/**
 * A step's timeline event; none for a hook step whose hook the flavour does not declare (most
 * operations of most packages run no hook: a step that does nothing is not shown).
 */
function stepEvent(
  run: Run,
  step: string,
  fields: Omit<Extract<NewOpEvent, { kind: 'step' }>, 'kind' | 'step' | 'hook'>,
): NewOpEvent | undefined {
  const suffix = HOOK_OF_STEP[step];
  if (suffix === undefined) return { kind: 'step', step, ...fields };
  const hook = `${run.def.hook}${suffix}`;
  if (!run.flavour || !findHook(run.flavour, hook)) return undefined;
  return { kind: 'step', step, hook, ...fields };
}

const emitStep = (run: Run, step: string, fields: Parameters<typeof stepEvent>[2]) => {
  const event = stepEvent(run, step, fields);
  if (event) run.timeline.emit(event);
};

/** Step boundaries and saves of a run, for the saga runner. */
function sagaControl(run: Run): SagaControl {
  return {
    // Between two steps: stop for a lost lease, a shutdown, or a cancel (as the last save read it).
    boundary() {
      if (run.control.abortReason() === 'lease') throw new LeaseLost();
      if (run.control.stopping()) throw new Requeue();
      if (run.cancelMode) throw new CancelledError(run.cancelMode);
    },
    // Records progress (fenced by the lease) and reads back a cancel request.
    async save() {
      const state = await run.store.saveProgress(run.deps.db.kysely, run.opOcc.id, run.progress, run.owner);
      if (!state) throw new LeaseLost();
      run.cancelMode = state.cancelMode;
    },
    started(step) {
      emitStep(run, step, { status: 'started' });
    },
    done(step, ms) {
      run.deps.logger.debug({ vnfLcmOpOccId: run.opOcc.id, step, ms }, 'LCM step done');
      emitStep(run, step, { status: 'finished', durationMs: ms });
    },
    failed(step, ms, err) {
      const detail = problemOf(causeOf(run, err), step).detail;
      emitStep(run, step, { status: 'failed', durationMs: ms, ...(detail ? { detail } : {}) });
    },
  };
}

/** The error a step threw, corrected for why the run was aborted. */
function causeOf(run: Failing, err: unknown): unknown {
  const reason = run.control.abortReason();
  if (reason === 'lease') return new LeaseLost();
  if (reason === 'cancel' && !(err instanceof CancelledError)) return new CancelledError('FORCEFUL');
  return err;
}

/** Ends a run that threw: the step that failed, and the error corrected for why the run was aborted. */
async function failedStep(run: Run, fallback: string, err: unknown): Promise<void> {
  const [step, cause] = err instanceof StepFailed ? [err.step, err.cause] : [fallback, err];
  await failed(run, step, causeOf(run, cause));
}

// ------------------------------------------------------------------ forward

async function forward(run: Run): Promise<void> {
  try {
    await runForward(run, run.progress, STEPS[run.opOcc.operation], sagaControl(run));
    await complete(run);
  } catch (err) {
    await failedStep(run, 'complete', err);
  }
}

async function complete(run: Run): Promise<void> {
  await run.timeline.flush();
  const done0 = appliedInstance(run.def, run.instance, run.opOcc, run.progress, run.target);
  const applied = {
    ...done0,
    instance: withHookChanges(done0.instance, [
      run.progress.outputs['start-hook']?.output,
      run.progress.outputs['end-hook']?.output,
    ]),
  };
  const result = run.progress.outputs.infra;
  const done = await transition(run.deps.db, run.store, {
    opOccId: run.opOcc.id,
    from: ['PROCESSING'],
    owner: run.owner,
    endsJob: true,
    instance: applied.instance,
    change: {
      operationState: 'COMPLETED',
      ...(run.def.granted ? { resourceChanges: result?.changes ?? EMPTY_CHANGES } : {}),
      ...(applied.changedInfo && Object.keys(applied.changedInfo).length
        ? { changedInfo: applied.changedInfo }
        : {}),
      ...(applied.changedExtConnectivity ? { changedExtConnectivity: applied.changedExtConnectivity } : {}),
      progress: { ...run.progress, outputs: {} },
      isCancelPending: false,
    },
    also: async (trx) => {
      // An instance left INSTANTIATED uses the VIMs its vimConnectionInfo names (MODIFY_INFO may add one).
      if (applied.instance.instantiationState === 'INSTANTIATED')
        await holdVims(trx, run.deps.db.dialect, applied.instance.vimConnectionInfo);
      if (applied.instance.vnfPkgId !== run.instance.vnfPkgId) {
        await refreshUsage(trx, applied.instance.vnfPkgId);
        await refreshUsage(trx, run.instance.vnfPkgId);
      }
    },
  });
  if (!done) throw new LeaseLost();
}

// ------------------------------------------------------------------ failure

async function failed(run: Failing, step: string, err: unknown): Promise<void> {
  if (err instanceof Requeue) {
    await run.store.requeue(run.deps.db.kysely, run.opOcc.id, run.owner, { progress: run.progress });
    run.deps.logger.info(
      { vnfLcmOpOccId: run.opOcc.id, step },
      'LCM operation handed back to the queue (shutdown)',
    );
    return;
  }
  if (err instanceof LeaseLost) {
    run.deps.logger.warn(
      { vnfLcmOpOccId: run.opOcc.id, step },
      'lost the lease of an LCM operation: another worker has it',
    );
    return;
  }
  await run.timeline.flush();
  const error = problemOf(err, step);
  const state = run.opOcc.operationState;
  // Failing while STARTING changed nothing (ROLLED_BACK), unless the NFVO could not be asked at
  // all: nothing was refused then, and the operation waits FAILED_TEMP to be retried.
  const to =
    state === 'STARTING' &&
    (STARTING_STEPS.has(step) || step === 'prepare') &&
    !(err instanceof NfvoUnavailable)
      ? 'ROLLED_BACK'
      : 'FAILED_TEMP';
  run.progress.failedStep = step;
  if (run.progress.steps[step] === 'started' && !COMPENSATED.has(step)) {
    delete run.progress.steps[step];
  }
  const level = err instanceof CancelledError ? 'info' : 'warn';
  run.deps.logger[level](
    { vnfLcmOpOccId: run.opOcc.id, step, to, detail: error.detail },
    'LCM operation step failed',
  );
  await transition(run.deps.db, run.store, {
    opOccId: run.opOcc.id,
    from: [state],
    owner: run.owner,
    endsJob: true,
    change: {
      operationState: to,
      error,
      progress: run.progress,
      isCancelPending: false,
    },
  });
}

// ------------------------------------------------------------------ rollback

async function rollback(run: Run): Promise<void> {
  const { progress } = run;
  const control = sagaControl(run);
  try {
    await rollbackHook(run, 'start', control);
    await compensate(run, progress, STEPS[run.opOcc.operation], control);
    await rollbackHook(run, 'end', control);
    await run.timeline.flush();
    const recorded = progress.outputs['rollback-infra'];
    const done = await transition(run.deps.db, run.store, {
      ...restoredInstance(run),
      opOccId: run.opOcc.id,
      from: ['ROLLING_BACK'],
      owner: run.owner,
      endsJob: true,
      change: {
        operationState: 'ROLLED_BACK',
        ...(recorded ? { resourceChanges: recorded } : {}),
        progress: { ...progress, outputs: {} },
        isCancelPending: false,
      },
    });
    if (!done) throw new LeaseLost();
  } catch (err) {
    await failedStep(run, 'rollback-end-hook', err);
  }
}

/**
 * The instance as the rollback left it: when the driver restored the VNFCs on other resources
 * than recorded (Kubernetes rolls back to new pods), their vnfcResourceInfo as it read them back;
 * the rest stays as recorded before the operation (a VIM that restores the same servers changes
 * nothing here).
 */
function restoredInstance(run: Run): { instance?: VnfInstanceRecord } {
  const restored = run.progress.outputs['rollback-info']?.vnfcResourceInfo;
  const before = run.instance.instantiatedVnfInfo;
  if (!restored || !before || run.instance.instantiationState !== 'INSTANTIATED') return {};
  const resources = (vnfcs: typeof restored = []) =>
    vnfcs
      .map((v) => `${v.id} ${v.computeResource.resourceId}`)
      .sort()
      .join();
  if (resources(restored) === resources(before.vnfcResourceInfo)) return {};
  return { instance: { ...run.instance, instantiatedVnfInfo: { ...before, vnfcResourceInfo: restored } } };
}

export type { CancelMode };

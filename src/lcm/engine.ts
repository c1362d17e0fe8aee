/**
 * Runs one claimed op occ: forward through its steps (STARTING, PROCESSING) or back through the
 * compensations of the steps that ran (ROLLING_BACK), recording each step's start, end and output
 * in the op occ before moving on. A failure while STARTING ends it ROLLED_BACK (nothing changed);
 * later it ends FAILED_TEMP with the error and the step, to be retried (resuming at that step),
 * rolled back or failed. Cancel is honoured at every step boundary (and FORCEFUL aborts the step
 * in flight through the signal).
 */
import { randomUUID } from 'node:crypto';
import {
  HOOK_CONTRACT_VERSION,
  type HookOutput,
  type HookVimConnection,
  type HookVnfInstance,
} from '../drivers/mgmt/hook-contract.ts';
import { findHook, HookError } from '../drivers/mgmt/hook-runner.ts';
import { buildGrantRequest } from '../grant/grant-request.ts';
import type { Grant, GrantRequest } from '../grant/types.ts';
import type { ResourceChanges } from '../sol/instance-model.ts';
import { ApiError } from '../sol/problem.ts';
import type { StoredVimConnection } from '../vims/connection-info.ts';
import { splitSecrets } from '../vims/connection-info.ts';
import type { DriverResult, GrantedResources, OperationContext } from '../vims/contract.ts';
import { holdVims, VimVanished } from '../vims/hold.ts';
import { mergeVims, withoutSealed } from '../vims/request-info.ts';
import type { Flavour } from '../vnfd/model/vnfd.ts';
import type { EngineDeps, ResolvedVim } from './engine-deps.ts';
import { CancelledError, LeaseLost, problemOf } from './errors.ts';
import { keepVnfcMetadata, vnfcAnswerProblem, withHookChanges } from './hook-changes.ts';
import type { CancelMode, OpOccRecord, VnfInstanceRecord } from './model.ts';
import type { LcmPackage, OperationDef, Params, Planned } from './operation-def.ts';
import { OPERATION_DEFS } from './operations/index.ts';
import { loadLcmPackage, refreshUsage } from './packages.ts';
import type { Progress } from './progress.ts';
import { COMPENSATED, HOOK_OF, ROLLBACK_HOOKS, STARTING_STEPS, STEPS, type StepName } from './steps.ts';
import type { LcmStore } from './store.ts';
import { transition } from './transition.ts';

/** What the runner tells the engine about the run: abort signal and why it fired. */
export interface RunControl {
  signal: AbortSignal;
  /** 'lease' when the worker lost its lease (or gave up at shutdown), 'cancel' for a FORCEFUL cancel. */
  abortReason(): 'lease' | 'cancel' | undefined;
  /** The worker is shutting down: hand the op occ back to the queue at the next step boundary. */
  stopping(): boolean;
}

/** Thrown at a step boundary when the worker stops: the op occ goes back to the queue as it is. */
class Requeue extends Error {}

interface GrantOutput {
  planned: Planned;
  vim: { key: string; stored: Record<string, StoredVimConnection> };
}

interface Run {
  deps: EngineDeps;
  store: LcmStore;
  owner: string;
  control: RunControl;
  opOcc: OpOccRecord;
  progress: Progress;
  grantRequest?: GrantRequest;
  grant?: Grant;
  def: OperationDef;
  instance: VnfInstanceRecord;
  pkg: LcmPackage;
  target: LcmPackage;
  flavour?: Flavour;
  facts: Params;
  /** A cancel asked for, as last read from the op occ (every save reads it back). */
  cancelMode?: CancelMode;
}

const EMPTY_CHANGES: ResourceChanges = {
  affectedVnfcs: [],
  affectedVirtualLinks: [],
  affectedVirtualStorages: [],
  affectedExtLinkPorts: [],
};

const opOccPath = (store: LcmStore, id: string) => `/vnflcm/${store.major}/vnf_lcm_op_occs/${id}`;
const instancePath = (store: LcmStore, id: string) => `/vnflcm/${store.major}/vnf_instances/${id}`;

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
  let run: Run;
  try {
    run = await prepare(deps, store, owner, control, work);
  } catch (err) {
    const partial = { deps, store, owner, control, opOcc: work.opOcc, progress: work.progress } as Run;
    await failed(partial, 'prepare', err);
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
  work: NonNullable<Awaited<ReturnType<LcmStore['findOpOccWork']>>>,
): Promise<Run> {
  const { opOcc, progress } = work;
  const db = deps.db.kysely;
  const def = OPERATION_DEFS[opOcc.operation];
  const instance = await store.findInstance(db, opOcc.vnfInstanceId);
  if (!instance) throw new ApiError(404, `VNF instance ${opOcc.vnfInstanceId} no longer exists.`);
  const pkg = await loadLcmPackage(db, instance.vnfPkgId);
  if (!pkg) throw new ApiError(422, `The VNF package ${instance.vnfPkgId} of the instance no longer exists.`);
  const facts = (progress.outputs.accept as Params | undefined) ?? {};
  const targetId = facts.targetPkgId as string | undefined;
  const target = targetId ? await loadLcmPackage(db, targetId) : pkg;
  if (!target) throw new ApiError(422, `The target VNF package ${targetId} no longer exists.`);
  const flavourId = def.flavourParam
    ? (opOcc.operationParams[def.flavourParam] as string)
    : instance.instantiatedVnfInfo?.flavourId;
  const vnfd = opOcc.operation === 'CHANGE_VNFPKG' ? target.vnfd : pkg.vnfd;
  const flavour = flavourId ? vnfd.flavours.find((f) => f.flavourId === flavourId) : undefined;
  if (def.granted && !flavour)
    throw new ApiError(422, `Flavour ${flavourId} is not in the VNFD ${vnfd.vnf.descriptorId}.`);
  return {
    deps,
    store,
    owner,
    control,
    opOcc,
    progress,
    grantRequest: work.grantRequest as GrantRequest | undefined,
    grant: work.grant as Grant | undefined,
    def,
    instance,
    pkg,
    target,
    flavour,
    facts,
    cancelMode: opOcc.isCancelPending ? (opOcc.cancelMode ?? 'GRACEFUL') : undefined,
  };
}

// ------------------------------------------------------------------ boundaries and persistence

/** Between two steps: stop for a lost lease, a shutdown, or a cancel (as the last save read it). */
function boundary(run: Run): void {
  if (run.control.abortReason() === 'lease') throw new LeaseLost();
  if (run.control.stopping()) throw new Requeue();
  if (run.cancelMode) throw new CancelledError(run.cancelMode);
}

/** Records progress (fenced by the lease) and reads back a cancel request. */
async function save(run: Run): Promise<void> {
  const state = await run.store.saveProgress(run.deps.db.kysely, run.opOcc.id, run.progress, run.owner);
  if (!state) throw new LeaseLost();
  run.cancelMode = state.cancelMode;
}

/** The error a step threw, corrected for why the run was aborted. */
function causeOf(run: Run, err: unknown): unknown {
  const reason = run.control.abortReason();
  if (reason === 'lease') return new LeaseLost();
  if (reason === 'cancel' && !(err instanceof CancelledError)) return new CancelledError('FORCEFUL');
  return err;
}

// ------------------------------------------------------------------ forward

async function forward(run: Run): Promise<void> {
  for (const step of STEPS[run.opOcc.operation]) {
    if (run.progress.steps[step] === 'done') continue;
    try {
      boundary(run);
      run.progress.steps[step] = 'started';
      run.progress.failedStep = undefined;
      await save(run);
      const started = Date.now();
      const output = await STEP_RUN[step](run);
      run.deps.logger.debug({ vnfLcmOpOccId: run.opOcc.id, step, ms: Date.now() - started }, 'LCM step done');
      run.progress.steps[step] = 'done';
      if (output !== undefined) run.progress.outputs[step] = output;
      if (step === 'grant') await enterProcessing(run);
      else await save(run);
    } catch (err) {
      await failed(run, step, causeOf(run, err));
      return;
    }
  }
  try {
    await complete(run);
  } catch (err) {
    await failed(run, 'complete', causeOf(run, err));
  }
}

/** The grant is in: record it and enter PROCESSING (a grant made again while PROCESSING is only recorded). */
async function enterProcessing(run: Run): Promise<void> {
  const starting = run.opOcc.operationState === 'STARTING';
  const { db } = run.deps;
  const granted = run.progress.outputs.grant as GrantOutput;
  let done: Awaited<ReturnType<typeof transition>>;
  try {
    done = await transition(db, run.store, {
      opOccId: run.opOcc.id,
      from: [run.opOcc.operationState],
      owner: run.owner,
      change: {
        ...(starting ? { operationState: 'PROCESSING' as const } : {}),
        progress: run.progress,
        grantId: run.grant?.id ?? null,
        grantRequest: run.grantRequest ?? null,
        grant: run.grant ?? null,
      },
      // The resolved VIM is recorded only while it is registered (a concurrent delete waits or wins).
      also: (trx) => holdVims(trx, db.dialect, granted.vim.stored),
    });
  } catch (err) {
    // Nothing was recorded: the grant step did not happen (a retry resolves the VIM again).
    if (err instanceof VimVanished) {
      delete run.progress.steps.grant;
      delete run.progress.outputs.grant;
    }
    throw err;
  }
  if (!done) throw new LeaseLost();
  run.opOcc = done.opOcc;
  if (done.opOcc.isCancelPending) run.cancelMode = done.opOcc.cancelMode ?? 'GRACEFUL';
}

const STEP_RUN: Readonly<Record<StepName, (run: Run) => Promise<unknown>>> = {
  grant: grantStep,
  'start-hook': (run) =>
    hookStep(run, (HOOK_OF['start-hook'] as (p: string) => string)(run.def.hook), 'start'),
  infra: infraStep,
  'end-hook': (run) => hookStep(run, (HOOK_OF['end-hook'] as (p: string) => string)(run.def.hook), 'end'),
};

function storedVims(run: Run): Record<string, StoredVimConnection> {
  const requested = run.facts.vimConnectionInfo as Record<string, StoredVimConnection | null> | undefined;
  return mergeVims(run.instance.vimConnectionInfo, requested);
}

async function grantStep(run: Run): Promise<GrantOutput> {
  const { deps, store, instance, opOcc } = run;
  const flavour = run.flavour as Flavour;
  const resolved = await deps.vims.resolve(instance.projectId, storedVims(run));
  const planned = (run.def.plan as NonNullable<OperationDef['plan']>)({
    instance,
    params: opOcc.operationParams,
    pkg: run.pkg,
    target: run.target,
    flavour,
    newId: randomUUID,
  });
  const request = buildGrantRequest({
    vnfInstanceId: instance.id,
    vnfLcmOpOccId: opOcc.id,
    vnfdId: instance.vnfdId,
    ...(run.target.vnfdId !== instance.vnfdId ? { dstVnfdId: run.target.vnfdId } : {}),
    flavour,
    operation: opOcc.operation,
    isAutomaticInvocation: opOcc.isAutomaticInvocation,
    instantiationLevelId: planned.instantiationLevelId,
    current: instance.instantiatedVnfInfo,
    delta: planned.delta,
    additionalParams: opOcc.operationParams.additionalParams as Record<string, unknown> | undefined,
    fallbackBestEffort: deps.config.lcm.placementFallbackBestEffort,
    links: { vnfLcmOpOcc: opOccPath(store, opOcc.id), vnfInstance: instancePath(store, instance.id) },
  });
  const existingZones: Record<string, string> = {};
  for (const v of instance.instantiatedVnfInfo?.vnfcResourceInfo ?? []) {
    const zone = v.zoneId ?? (v.metadata?.zone as string | undefined);
    if (zone) existingZones[v.computeResource.resourceId] = zone;
  }
  const grant = await deps.nfvo.grant(request, {
    project: instance.projectId,
    vim: {
      connectionId: resolved.key,
      vimId: resolved.connection.vimId,
      vimType: resolved.connection.vimType,
    },
    zones: await deps.vims.zones(resolved.connection),
    existingZones,
    flavour,
    grantsPath: '/grant/v1/grants',
  });
  run.grantRequest = request;
  run.grant = grant;
  return { planned, vim: { key: resolved.key, stored: resolved.stored } } satisfies GrantOutput;
}

function grantedResources(grant: Grant | undefined): GrantedResources {
  const zoneOf: Record<string, string> = {};
  for (const g of [...(grant?.addResources ?? []), ...(grant?.updateResources ?? [])]) {
    if (g.zoneId) zoneOf[g.resourceDefinitionId] = g.zoneId;
  }
  const softwareImages: Record<string, string> = {};
  for (const i of grant?.vimAssets?.softwareImages ?? [])
    softwareImages[i.vnfdSoftwareImageId] = i.vimSoftwareImageId;
  const computeFlavours: Record<string, string> = {};
  for (const f of grant?.vimAssets?.computeResourceFlavours ?? [])
    computeFlavours[f.vnfdVirtualComputeDescId] = f.vimFlavourId;
  return {
    grantId: grant?.id ?? '',
    zones: (grant?.zones ?? []).map((z) => ({
      id: z.id,
      zoneId: z.zoneId,
      vimConnectionId: z.vimConnectionId,
    })),
    zoneOf,
    softwareImages,
    computeFlavours,
  };
}

async function operationContext(
  run: Run,
): Promise<{ ctx: OperationContext; driver: ReturnType<EngineDeps['vims']['driver']> }> {
  const out = run.progress.outputs.grant as GrantOutput;
  const resolved = await run.deps.vims.resolve(run.instance.projectId, out.vim.stored);
  const driver = run.deps.vims.driver(resolved.connection.vimType);
  const vnfd = run.opOcc.operation === 'CHANGE_VNFPKG' ? run.target.vnfd : run.pkg.vnfd;
  const ctx: OperationContext = {
    vim: resolved.connection,
    instanceId: run.instance.id,
    opOccId: run.opOcc.id,
    current: run.instance.instantiatedVnfInfo,
    grant: grantedResources(run.grant),
    signal: run.control.signal,
    vnfd,
    flavourId: (run.flavour as Flavour).flavourId,
    additionalParams: run.opOcc.operationParams.additionalParams as Record<string, unknown> | undefined,
  };
  return { ctx, driver };
}

async function infraStep(run: Run): Promise<DriverResult> {
  const out = run.progress.outputs.grant as GrantOutput;
  const { ctx, driver } = await operationContext(run);
  return (run.def.infra as NonNullable<OperationDef['infra']>)(driver, ctx, out.planned.driverPlan);
}

/**
 * Which instance a hook sees: `_start` hooks the instance before the operation, `_end` hooks the
 * one the VIM work left (with the start hook's answer), `_rollback_start` the one the failed
 * operation left, `_rollback_end` the one before the operation (what the rollback restores).
 */
type HookPhase = 'start' | 'end' | 'rollback-start' | 'rollback-end';

/** What a hook step records: the hook's answer, applied when the operation completes. */
interface HookStepOutput {
  hook: string;
  output: HookOutput;
  durationMs: number;
}

const hookOutputOf = (progress: Progress, step: 'start-hook' | 'end-hook') =>
  (progress.outputs[step] as HookStepOutput | undefined)?.output;

function hookPhaseInstance(run: Run, phase: HookPhase): VnfInstanceRecord {
  const infraDone = run.progress.outputs.infra !== undefined;
  if (phase === 'end' || (phase === 'rollback-start' && infraDone)) {
    const after = appliedInstance(run.def, run.instance, run.opOcc, run.progress, run.target).instance;
    return phase === 'end' ? withHookChanges(after, [hookOutputOf(run.progress, 'start-hook')]) : after;
  }
  return run.instance;
}

/**
 * The VIM connections a hook is given: the stored ones without anything sealed, and the one the
 * operation works with completed from the registry, its credentials only when the operator set
 * `vims.<id>.exposeCredentialsToHooks`.
 */
async function hookVims(run: Run): Promise<Record<string, HookVimConnection>> {
  const stored = (run.progress.outputs.grant as GrantOutput | undefined)?.vim.stored ?? storedVims(run);
  const out: Record<string, HookVimConnection> = withoutSealed(stored);
  let resolved: ResolvedVim;
  try {
    resolved = await run.deps.vims.resolve(run.instance.projectId, stored);
  } catch (err) {
    if (err instanceof ApiError) return out; // No VIM to describe (e.g. MODIFY_INFO without one).
    throw err;
  }
  const { id, accessInfo, interfaceInfo, ...connection } = resolved.connection;
  const expose = run.deps.config.vims[connection.vimId ?? '']?.exposeCredentialsToHooks === true;
  out[id] = {
    ...connection,
    ...(interfaceInfo ? { interfaceInfo: expose ? interfaceInfo : splitSecrets(interfaceInfo).public } : {}),
    ...(expose && accessInfo ? { accessInfo } : {}),
  };
  return out;
}

/** What the VIM work changed, for all but `_start` hooks: `_rollback_end` hooks get what the rollback undid. */
function hookResourceChanges(run: Run, phase: HookPhase): { resourceChanges?: ResourceChanges } {
  if (phase === 'start') return {};
  const undone = run.progress.outputs['rollback-infra'] as ResourceChanges | undefined;
  if (phase === 'rollback-end' && undone) return { resourceChanges: undone };
  const infra = run.progress.outputs.infra as DriverResult | undefined;
  return infra ? { resourceChanges: infra.changes } : {};
}

async function hookStep(run: Run, hook: string, phase: HookPhase): Promise<HookStepOutput | undefined> {
  // Nothing to build for a hook the flavour does not declare (most operations of most packages).
  if (!run.flavour || !findHook(run.flavour, hook)) return undefined;
  const change = run.opOcc.operation === 'CHANGE_VNFPKG';
  const vnfInstance = hookInstance(hookPhaseInstance(run, phase));
  const startOutput = phase === 'end' ? hookOutputOf(run.progress, 'start-hook') : undefined;
  const outcome = await run.deps.hooks.run({
    hook,
    flavour: run.flavour,
    vnfPkgId: change ? run.target.id : run.pkg.id,
    signal: run.control.signal,
    input: {
      contractVersion: HOOK_CONTRACT_VERSION,
      operation: hook,
      lcmOperation: run.opOcc.operation,
      vnfLcmOpOccId: run.opOcc.id,
      request: run.opOcc.operationParams,
      vnfInstance,
      ...(run.grantRequest ? { grantRequest: run.grantRequest as unknown as Record<string, unknown> } : {}),
      ...(run.grant ? { grant: run.grant as unknown as Record<string, unknown> } : {}),
      vnfd: {
        vnfdId: change ? run.target.vnfdId : run.pkg.vnfdId,
        vnfPkgId: change ? run.target.id : run.pkg.id,
        flavourId: run.flavour.flavourId,
        flavour: run.flavour,
      },
      vimConnectionInfo: await hookVims(run),
      ...hookResourceChanges(run, phase),
      ...(startOutput ? { startHookOutput: startOutput } : {}),
    },
  });
  if (!outcome.ran) return undefined;
  const problem = vnfcAnswerProblem(outcome.output, vnfInstance);
  if (problem) throw new HookError(hook, `Hook ${hook}: ${problem}.`, { hook });
  return { hook, output: outcome.output, durationMs: outcome.durationMs };
}

/** The instance as hooks see it: the record without its lock and without sealed credentials. */
function hookInstance(instance: VnfInstanceRecord): HookVnfInstance {
  const { busyOpOccId: _b, ...rest } = instance;
  return { ...rest, vimConnectionInfo: withoutSealed(instance.vimConnectionInfo) };
}

/** The instance the operation leaves behind (COMPLETED, or FAILED with its infra step done). */
export function appliedInstance(
  def: OperationDef,
  instance: VnfInstanceRecord,
  opOcc: OpOccRecord,
  progress: Progress,
  target: LcmPackage,
) {
  const grantOut = progress.outputs.grant as GrantOutput | undefined;
  const facts = (progress.outputs.accept as Params | undefined) ?? {};
  const vimConnectionInfo =
    grantOut?.vim.stored ??
    mergeVims(
      instance.vimConnectionInfo,
      facts.vimConnectionInfo as Record<string, StoredVimConnection | null> | undefined,
    );
  const applied = def.apply({
    instance,
    params: opOcc.operationParams,
    planned: grantOut?.planned ?? { delta: {}, driverPlan: undefined },
    result: progress.outputs.infra as DriverResult | undefined,
    target,
    vimConnectionInfo,
  });
  return { ...applied, instance: keepVnfcMetadata(instance, applied.instance) };
}

async function complete(run: Run): Promise<void> {
  const done0 = appliedInstance(run.def, run.instance, run.opOcc, run.progress, run.target);
  const applied = {
    ...done0,
    instance: withHookChanges(done0.instance, [
      hookOutputOf(run.progress, 'start-hook'),
      hookOutputOf(run.progress, 'end-hook'),
    ]),
  };
  const result = run.progress.outputs.infra as DriverResult | undefined;
  const done = await transition(run.deps.db, run.store, {
    opOccId: run.opOcc.id,
    from: ['PROCESSING'],
    owner: run.owner,
    instance: applied.instance,
    change: {
      operationState: 'COMPLETED',
      ...(run.def.granted ? { resourceChanges: result?.changes ?? EMPTY_CHANGES } : {}),
      ...(applied.changedInfo && Object.keys(applied.changedInfo).length
        ? { changedInfo: applied.changedInfo }
        : {}),
      ...(applied.changedExtConnectivity ? { changedExtConnectivity: applied.changedExtConnectivity } : {}),
      progress: { ...run.progress, outputs: {} },
      jobState: null,
      leaseOwner: null,
      leaseUntil: null,
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

async function failed(run: Run, step: string, err: unknown): Promise<void> {
  if (err instanceof Requeue) {
    await run.store.changeOpOcc(
      run.deps.db.kysely,
      run.opOcc.id,
      { progress: run.progress, jobState: 'queued', leaseOwner: null, leaseUntil: null },
      { owner: run.owner },
    );
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
  const error = problemOf(err, step);
  const state = run.opOcc.operationState;
  const to =
    state === 'STARTING' && (STARTING_STEPS.has(step as StepName) || step === 'prepare')
      ? 'ROLLED_BACK'
      : 'FAILED_TEMP';
  run.progress.failedStep = step;
  if (run.progress.steps[step as StepName] === 'started' && !COMPENSATED.has(step as StepName)) {
    delete run.progress.steps[step as StepName];
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
    change: {
      operationState: to,
      error,
      progress: run.progress,
      jobState: null,
      leaseOwner: null,
      leaseUntil: null,
      isCancelPending: false,
    },
  });
}

// ------------------------------------------------------------------ rollback

async function rollback(run: Run): Promise<void> {
  const { def, progress } = run;
  const decision = def.rollback(run.opOcc.operationParams, run.facts);
  let current = 'rollback-start-hook';
  try {
    if (progress.rollbackHooks.start !== 'done') {
      boundary(run);
      await hookStep(run, ROLLBACK_HOOKS.start(def.hook), 'rollback-start');
      progress.rollbackHooks.start = 'done';
      await save(run);
    }
    let changes: ResourceChanges | undefined;
    for (const step of [...STEPS[run.opOcc.operation]].reverse()) {
      if (!progress.steps[step] || !COMPENSATED.has(step) || progress.compensated[step] === 'done') continue;
      current = `rollback-${step}`;
      boundary(run);
      progress.compensated[step] = 'started';
      await save(run);
      if ('as' in decision) {
        const { ctx, driver } = await operationContext(run);
        const result = await driver.rollback(ctx, decision.as);
        changes = result.changes;
        progress.outputs[current] = result.changes;
      }
      progress.compensated[step] = 'done';
      delete progress.steps[step];
      await save(run);
    }
    current = 'rollback-end-hook';
    if (progress.rollbackHooks.end !== 'done') {
      boundary(run);
      await hookStep(run, ROLLBACK_HOOKS.end(def.hook), 'rollback-end');
      progress.rollbackHooks.end = 'done';
      await save(run);
    }
    const recorded = (progress.outputs['rollback-infra'] as ResourceChanges | undefined) ?? changes;
    const done = await transition(run.deps.db, run.store, {
      opOccId: run.opOcc.id,
      from: ['ROLLING_BACK'],
      owner: run.owner,
      change: {
        operationState: 'ROLLED_BACK',
        ...(recorded ? { resourceChanges: recorded } : {}),
        progress: { ...progress, outputs: {} },
        jobState: null,
        leaseOwner: null,
        leaseUntil: null,
        isCancelPending: false,
      },
    });
    if (!done) throw new LeaseLost();
  } catch (err) {
    await failed(run, current, causeOf(run, err));
  }
}

export type { CancelMode };

/**
 * The LCM service the API calls: create and delete VNF instances, start an operation (the op occ
 * is inserted and the instance held in one transaction, so a second operation on a busy instance,
 * or one with a FAILED_TEMP op occ, is refused with 409 at once, whatever its type), and the op
 * occ tasks retry, rollback, fail and cancel. Everything that may be refused is refused here,
 * before anything is accepted.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config/load.ts';
import { checkBuiltinParams } from '../drivers/mgmt/builtin/registry.ts';
import { sealSshSecrets } from '../drivers/mgmt/ssh/ssh-secrets.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { Operation } from '../sol/lcm-operations.ts';
import { ApiError } from '../sol/problem.ts';
import type { Database } from '../store/db/database.ts';
import { type Executor, inTransaction } from '../store/db/transaction.ts';
import { sealRequestVims } from '../vims/request-info.ts';
import { appliedInstance } from './applied.ts';
import type { VimAccess } from './engine-deps.ts';
import { type CancelMode, nowIso, type OpOccRecord, type VnfInstanceRecord } from './model.ts';
import { notifyCreated, notifyDeleted, notifyOpOcc } from './notify.ts';
import { taskRefusal } from './op-states.ts';
import type { AcceptFacts, Params } from './operation-def.ts';
import { OPERATION_DEFS } from './operations/index.ts';
import { loadLcmPackage, packageByVnfdId, refreshUsage } from './packages.ts';
import { notifyWorkers } from './pg-wakeup.ts';
import { emptyProgress } from './progress.ts';
import type { LcmStore, OpOccChange } from './store.ts';
import { appendOpEvents } from './timeline/record.ts';
import { opEventsCommitted } from './timeline/signal.ts';
import { transition } from './transition.ts';
import { cancelRequested, wakeRunners } from './wakeup.ts';

/** Where a package the project lacks may come from (the external NFVO's packages). */
export interface PackageSource {
  /** Makes the package of `vnfdId` ONBOARDED in `project` if the source has it. */
  ensure(project: string, vnfdId: string): Promise<void>;
}

export interface LcmService {
  config: Config;
  db: Database;
  box: SealedBox;
  store: LcmStore;
  vims?: VimAccess;
  packageSource?: PackageSource;
}

export interface CreateRequest {
  vnfdId: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Before POST vnf_instances is checked: a package the project lacks is fetched from the package
 * source (the external NFVO), when there is one.
 */
export async function fetchMissingPackage(svc: LcmService, project: string, vnfdId: string): Promise<void> {
  await svc.packageSource?.ensure(project, vnfdId);
}

/** POST vnf_instances: the package must be ONBOARDED and ENABLED; it becomes IN_USE. */
export async function createInstance(
  svc: LcmService,
  project: string,
  request: CreateRequest,
): Promise<VnfInstanceRecord> {
  return inTransaction(svc.db, async (trx) => {
    const pkg = await packageByVnfdId(trx, project, request.vnfdId);
    if (!pkg) throw new ApiError(422, `No ONBOARDED VNF package has vnfdId ${request.vnfdId}.`);
    if (pkg.operationalState !== 'ENABLED') {
      throw new ApiError(
        422,
        `The VNF package with vnfdId ${request.vnfdId} is ${pkg.operationalState}, not ENABLED.`,
      );
    }
    const now = nowIso();
    const record: VnfInstanceRecord = {
      id: randomUUID(),
      projectId: project,
      ...(request.vnfInstanceName !== undefined ? { vnfInstanceName: request.vnfInstanceName } : {}),
      ...(request.vnfInstanceDescription !== undefined
        ? { vnfInstanceDescription: request.vnfInstanceDescription }
        : {}),
      vnfdId: pkg.vnfdId,
      vnfPkgId: pkg.id,
      vnfProvider: pkg.vnfProvider,
      vnfProductName: pkg.vnfProductName,
      vnfSoftwareVersion: pkg.vnfSoftwareVersion,
      vnfdVersion: pkg.vnfdVersion,
      instantiationState: 'NOT_INSTANTIATED',
      vimConnectionInfo: {},
      vnfConfigurableProperties: { ...(pkg.vnfd.vnf.configurableProperties ?? {}) },
      metadata: request.metadata ?? {},
      extensions: {},
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    await svc.store.insertInstance(trx, record);
    await refreshUsage(trx, pkg.id);
    await notifyCreated(trx, svc.store, record);
    return record;
  });
}

function busyDetail(instance: VnfInstanceRecord, holder: OpOccRecord | undefined): string {
  if (!holder) return `VNF instance ${instance.id} is busy with another LCM operation.`;
  const what = `${holder.operation} (operation occurrence ${holder.id})`;
  return holder.operationState === 'FAILED_TEMP'
    ? `VNF instance ${instance.id} has a FAILED_TEMP operation, ${what}: retry, roll back or fail it first.`
    : `VNF instance ${instance.id} is busy: ${what} is ${holder.operationState}.`;
}

async function refuseBusy(trx: Executor, store: LcmStore, instanceId: string): Promise<never> {
  const instance = await store.findInstance(trx, instanceId);
  if (!instance) throw new ApiError(404, `VNF instance ${instanceId} does not exist.`);
  const holder = instance.busyOpOccId ? await store.findOpOcc(trx, instance.busyOpOccId) : undefined;
  throw new ApiError(409, busyDetail(instance, holder));
}

/** DELETE vnf_instances/{id}: only NOT_INSTANTIATED and idle; the package may return to NOT_IN_USE. */
export async function deleteInstance(svc: LcmService, instance: VnfInstanceRecord): Promise<void> {
  await inTransaction(svc.db, async (trx) => {
    const current = await svc.store.findInstance(trx, instance.id);
    if (!current) throw new ApiError(404, `VNF instance ${instance.id} does not exist.`);
    if (current.instantiationState !== 'NOT_INSTANTIATED') {
      throw new ApiError(
        409,
        `VNF instance ${instance.id} is INSTANTIATED: terminate it before deleting it.`,
      );
    }
    if (!(await svc.store.deleteIdleInstance(trx, instance.id)))
      await refuseBusy(trx, svc.store, instance.id);
    await refreshUsage(trx, current.vnfPkgId);
    await notifyDeleted(trx, svc.store, current);
  });
}

export interface StartOptions {
  /** Checked on the instance as held (e.g. If-Match), inside the transaction. */
  precondition?: (instance: VnfInstanceRecord) => void;
  isAutomaticInvocation?: boolean;
  /**
   * Runs in the transaction that accepts the operation, after the op occ is inserted: a caller's
   * own record commits or rolls back with it (auto-heal marks its batch started, exactly once).
   */
  within?: (trx: Executor, opOcc: OpOccRecord) => Promise<void>;
}

/**
 * Accepts an LCM operation: holds the instance, checks the request against the instance and its
 * VNFD, seals credentials, inserts the op occ (STARTING, or PROCESSING for MODIFY_INFO) queued
 * for a worker, and notifies — all in one transaction.
 */
export async function startOperation(
  svc: LcmService,
  instanceId: string,
  operation: Operation,
  request: Params,
  options: StartOptions = {},
): Promise<OpOccRecord> {
  const def = OPERATION_DEFS[operation];
  const opOcc = await inTransaction(svc.db, async (trx) => {
    const id = randomUUID();
    if (!(await svc.store.hold(trx, instanceId, id))) await refuseBusy(trx, svc.store, instanceId);
    const instance = (await svc.store.findInstance(trx, instanceId)) as VnfInstanceRecord;
    options.precondition?.(instance);
    if (!def.requires.includes(instance.instantiationState)) {
      throw new ApiError(
        409,
        `VNF instance ${instance.id} is ${instance.instantiationState}: ${operation} needs ${def.requires.join(' or ')}.`,
      );
    }
    const pkg = await loadLcmPackage(trx, instance.vnfPkgId);
    if (!pkg)
      throw new ApiError(
        422,
        `The VNF package ${instance.vnfPkgId} of VNF instance ${instance.id} no longer exists.`,
      );
    const bestEffort = (request.additionalParams as { fallbackBestEffort?: unknown } | undefined)
      ?.fallbackBestEffort;
    if (bestEffort !== undefined && typeof bestEffort !== 'boolean') {
      throw new ApiError(
        400,
        'additionalParams.fallbackBestEffort must be a boolean: true places VNFCs even where affinity rules cannot be met, false refuses.',
      );
    }
    const accepted = await def.accept(
      {
        db: trx,
        config: svc.config,
        instance,
        pkg,
        packageByVnfdId: (vnfdId) => packageByVnfdId(trx, instance.projectId, vnfdId),
      },
      request,
    );
    const params = { ...accepted.params };
    const facts: AcceptFacts = { ...(accepted.facts ?? {}) };
    const sealed = sealRequestVims(svc.box, params.vimConnectionInfo as never);
    if (sealed) {
      params.vimConnectionInfo = sealed.redacted;
      facts.vimConnectionInfo = sealed.stored;
    }
    checkBuiltinParams(params.additionalParams);
    const ssh = sealSshSecrets(svc.box, params.additionalParams as Record<string, unknown> | undefined);
    if (ssh) {
      params.additionalParams = ssh.additionalParams;
      facts.sshSecrets = ssh.sealed;
    }
    const now = nowIso();
    const record: OpOccRecord = {
      id,
      projectId: instance.projectId,
      vnfInstanceId: instance.id,
      operation,
      operationState: def.granted ? 'STARTING' : 'PROCESSING',
      stateEnteredTime: now,
      startTime: now,
      isAutomaticInvocation: options.isAutomaticInvocation ?? false,
      operationParams: params,
      isCancelPending: false,
      attempts: 0,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    const progress = emptyProgress();
    progress.outputs.accept = facts;
    await svc.store.insertOpOcc(trx, record, { progress, queued: true });
    await notifyOpOcc(trx, svc.store, instance, record);
    await appendOpEvents(trx, svc.db, record.id, [{ kind: 'state', state: record.operationState }]);
    await options.within?.(trx, record);
    return record;
  });
  opEventsCommitted(opOcc.id);
  wakeRunners();
  await notifyWorkers(svc.db);
  return opOcc;
}

// ------------------------------------------------------------------ op occ tasks

async function loadForTask(svc: LcmService, id: string, task: 'retry' | 'rollback' | 'fail' | 'cancel') {
  const work = await svc.store.findOpOccWork(svc.db.kysely, id);
  if (!work) throw new ApiError(404, `VNF LCM operation occurrence ${id} does not exist.`);
  const refusal = taskRefusal(task, work.opOcc.operationState, id);
  if (refusal) throw new ApiError(409, refusal);
  return work;
}

const gone = (id: string) =>
  new ApiError(
    409,
    `VNF LCM operation occurrence ${id} changed while the request was handled; read it again.`,
  );

/** POST …/retry: FAILED_TEMP → PROCESSING, resuming at the step that failed. */
export async function retryOpOcc(svc: LcmService, id: string): Promise<OpOccRecord> {
  const { progress } = await loadForTask(svc, id, 'retry');
  return requeue(svc, id, {
    operationState: 'PROCESSING',
    error: null,
    progress: { ...progress, compensated: {}, rollbackHooks: {} },
  });
}

/**
 * FAILED_TEMP → `change.operationState`, back in the queue (retry and rollback both hand the op
 * occ's job to a worker again), and the workers woken.
 */
async function requeue(svc: LcmService, id: string, change: OpOccChange): Promise<OpOccRecord> {
  const done = await transition(svc.db, svc.store, {
    opOccId: id,
    from: ['FAILED_TEMP'],
    change: {
      ...change,
      jobState: 'queued',
      leaseOwner: null,
      leaseUntil: null,
      isCancelPending: false,
      cancelMode: null,
    },
  });
  if (!done) throw gone(id);
  wakeRunners();
  await notifyWorkers(svc.db);
  return done.opOcc;
}

/**
 * POST …/rollback: FAILED_TEMP → ROLLING_BACK. Refused (422) when the operation cannot be rolled
 * back — by its nature (TERMINATE, HEAL, SCALE_IN, …) or because the VIM's driver cannot.
 */
export async function rollbackOpOcc(svc: LcmService, id: string): Promise<OpOccRecord> {
  const { opOcc, progress } = await loadForTask(svc, id, 'rollback');
  const def = OPERATION_DEFS[opOcc.operation];
  const facts = progress.outputs.accept ?? {};
  const decision = def.rollback(opOcc.operationParams, facts);
  if ('refused' in decision) {
    throw new ApiError(
      422,
      `Rollback of ${opOcc.operation} is not supported: ${decision.refused}. Retry it, or mark it failed.`,
    );
  }
  if ('as' in decision && svc.vims) {
    const vim = progress.outputs.grant?.vim;
    const vimType = vim ? Object.values(vim.stored)[0]?.vimType : undefined;
    if (vimType) {
      const driver = svc.vims.driver(vimType);
      if (!driver.rollbackable.includes(decision.as)) {
        throw new ApiError(422, `Rollback of ${decision.as} is not supported by the ${vimType} driver.`);
      }
    }
  }
  return requeue(svc, id, { operationState: 'ROLLING_BACK' });
}

/**
 * POST …/fail: FAILED_TEMP → FAILED, at once. What the infra step already did is kept in the
 * instance (so that, e.g., a VNF instantiated but failed in its end hook can be terminated).
 */
export async function failOpOcc(svc: LcmService, id: string): Promise<OpOccRecord> {
  const { opOcc, progress } = await loadForTask(svc, id, 'fail');
  const def = OPERATION_DEFS[opOcc.operation];
  const instance = await svc.store.findInstance(svc.db.kysely, opOcc.vnfInstanceId);
  let kept: VnfInstanceRecord | undefined;
  if (instance && progress.steps.infra === 'done') {
    const targetId = progress.outputs.accept?.targetPkgId;
    const target =
      (targetId ? await loadLcmPackage(svc.db.kysely, targetId) : undefined) ??
      (await loadLcmPackage(svc.db.kysely, instance.vnfPkgId));
    if (target) kept = appliedInstance(def, instance, opOcc, progress, target).instance;
  }
  const done = await transition(svc.db, svc.store, {
    opOccId: id,
    from: ['FAILED_TEMP'],
    instance: kept,
    change: {
      operationState: 'FAILED',
      jobState: null,
      leaseOwner: null,
      leaseUntil: null,
      progress: { ...progress, outputs: {} },
    },
    also: async (trx) => {
      if (kept && instance && kept.vnfPkgId !== instance.vnfPkgId) {
        await refreshUsage(trx, kept.vnfPkgId);
        await refreshUsage(trx, instance.vnfPkgId);
      }
    },
  });
  if (!done) throw gone(id);
  return done.opOcc;
}

/** POST …/cancel: takes effect at the next step boundary; FORCEFUL also aborts the step in flight. */
export async function cancelOpOcc(svc: LcmService, id: string, mode: CancelMode): Promise<OpOccRecord> {
  const { opOcc } = await loadForTask(svc, id, 'cancel');
  if (opOcc.isCancelPending)
    throw new ApiError(409, `VNF LCM operation occurrence ${id} is already being cancelled.`);
  const changed = await svc.store.changeOpOcc(
    svc.db.kysely,
    id,
    { isCancelPending: true, cancelMode: mode },
    { from: ['STARTING', 'PROCESSING', 'ROLLING_BACK'] },
  );
  if (!changed) throw gone(id);
  cancelRequested(id, mode);
  wakeRunners();
  await notifyWorkers(svc.db, { opOccId: id, mode });
  return (await svc.store.findOpOcc(svc.db.kysely, id)) as OpOccRecord;
}

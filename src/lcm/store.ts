/**
 * Persistence of VNF instances and LCM op occs of one API major. Each major has its own pair of
 * tables with the same columns (vnf_instances_v2 / vnf_lcm_op_occs_v2; v1 plugs in the same
 * way), so one engine serves both: the store knows the table names and the row codec, nothing
 * else does.
 *
 * Writes a worker makes are fenced by its lease (`lease_owner = owner`): a worker that lost its
 * lease (it stalled and another took the op occ over) changes nothing.
 */
import type { Grant, GrantRequest } from '../grant/types.ts';
import type { Operation, OperationState } from '../sol/lcm-operations.ts';
import type { LcmOpOccsTable, VnfInstancesTable } from '../store/db/tables.ts';
import type { Executor } from '../store/db/transaction.ts';
import { claimableJobs, claimJob, claimJobs } from '../store/queue/claim.ts';
import { completeJob } from '../store/queue/complete.ts';
import { failJob } from '../store/queue/fail.ts';
import { renewJobLease } from '../store/queue/heartbeat.ts';
import type { JobTable } from '../store/queue/table.ts';
import { type AbandonedJob, abandonedJobs, takeOverJob } from '../store/queue/take-over.ts';
import type { LcmMajor } from './majors/index.ts';
import {
  type CancelMode,
  type InstantiationState,
  nowIso,
  type OpOccRecord,
  type VnfInstanceRecord,
} from './model.ts';
import type { Progress } from './progress.ts';
import { emptyProgress, parseProgress } from './progress.ts';

export type { LcmMajor };

const json = <T>(text: string | null): T | undefined => (text == null ? undefined : (JSON.parse(text) as T));
const opt = (v: string | null) => v ?? undefined;
const bool = (v: boolean | number) => v === true || v === 1;

export function instanceFromRow(row: VnfInstancesTable): VnfInstanceRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    vnfInstanceName: opt(row.vnf_instance_name),
    vnfInstanceDescription: opt(row.vnf_instance_description),
    vnfdId: row.vnfd_id,
    vnfPkgId: row.vnf_pkg_id,
    vnfProvider: row.vnf_provider,
    vnfProductName: row.vnf_product_name,
    vnfSoftwareVersion: row.vnf_software_version,
    vnfdVersion: row.vnfd_version,
    instantiationState: row.instantiation_state as InstantiationState,
    instantiatedVnfInfo: json(row.instantiated_vnf_info),
    vimConnectionInfo: JSON.parse(row.vim_connection_info),
    vnfConfigurableProperties: JSON.parse(row.vnf_configurable_properties),
    metadata: JSON.parse(row.metadata),
    extensions: JSON.parse(row.extensions),
    busyOpOccId: opt(row.busy_op_occ_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

export function instanceToRow(r: VnfInstanceRecord): VnfInstancesTable {
  return {
    id: r.id,
    project_id: r.projectId,
    vnf_instance_name: r.vnfInstanceName ?? null,
    vnf_instance_description: r.vnfInstanceDescription ?? null,
    vnfd_id: r.vnfdId,
    vnf_pkg_id: r.vnfPkgId,
    vnf_provider: r.vnfProvider,
    vnf_product_name: r.vnfProductName,
    vnf_software_version: r.vnfSoftwareVersion,
    vnfd_version: r.vnfdVersion,
    instantiation_state: r.instantiationState,
    instantiated_vnf_info: r.instantiatedVnfInfo ? JSON.stringify(r.instantiatedVnfInfo) : null,
    vim_connection_info: JSON.stringify(r.vimConnectionInfo),
    vnf_configurable_properties: JSON.stringify(r.vnfConfigurableProperties),
    metadata: JSON.stringify(r.metadata),
    extensions: JSON.stringify(r.extensions),
    busy_op_occ_id: r.busyOpOccId ?? null,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    version: r.version,
  };
}

export function opOccFromRow(row: LcmOpOccsTable): OpOccRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    vnfInstanceId: row.vnf_instance_id,
    operation: row.operation as Operation,
    operationState: row.operation_state as OperationState,
    stateEnteredTime: row.state_entered_time,
    startTime: row.start_time,
    isAutomaticInvocation: bool(row.is_automatic_invocation),
    operationParams: JSON.parse(row.operation_params),
    isCancelPending: bool(row.is_cancel_pending),
    cancelMode: (row.cancel_mode as CancelMode | null) ?? undefined,
    error: json(row.error),
    resourceChanges: json(row.resource_changes),
    changedInfo: json(row.changed_info),
    changedExtConnectivity: json(row.changed_ext_connectivity),
    grantId: opt(row.grant_id),
    placementAttempts: json(row.placement_attempts),
    jobState: (row.job_state as OpOccRecord['jobState'] | null) ?? undefined,
    leaseOwner: opt(row.lease_owner),
    leaseUntil: opt(row.lease_until),
    attempts: Number(row.attempts),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

/** Columns an op occ list reads (not the engine's bulky bookkeeping). */
export const OP_OCC_LIST_COLUMNS = [
  'id',
  'project_id',
  'vnf_instance_id',
  'operation',
  'operation_state',
  'state_entered_time',
  'start_time',
  'is_automatic_invocation',
  'operation_params',
  'is_cancel_pending',
  'cancel_mode',
  'error',
  'resource_changes',
  'changed_info',
  'changed_ext_connectivity',
  'grant_id',
  'placement_attempts',
  'job_state',
  'lease_owner',
  'lease_until',
  'attempts',
  'created_at',
  'updated_at',
  'version',
] as const;

/** Fields of an op occ a state change may set (undefined = unchanged, null = cleared). */
export interface OpOccChange {
  operationState?: OperationState;
  error?: unknown | null;
  resourceChanges?: unknown | null;
  changedInfo?: unknown | null;
  changedExtConnectivity?: unknown | null;
  grantId?: string | null;
  grantRequest?: unknown | null;
  grant?: unknown | null;
  placementAttempts?: unknown | null;
  progress?: Progress;
  jobState?: 'queued' | 'running' | null;
  leaseOwner?: string | null;
  leaseUntil?: string | null;
  isCancelPending?: boolean;
  cancelMode?: CancelMode | null;
}

const text = (v: unknown | null | undefined) =>
  v === undefined ? undefined : v === null ? null : JSON.stringify(v);

function changeColumns(change: OpOccChange, now: string): Partial<LcmOpOccsTable> {
  const cols: Partial<LcmOpOccsTable> = { updated_at: now };
  if (change.operationState !== undefined) {
    cols.operation_state = change.operationState;
    cols.state_entered_time = now;
  }
  const set = <K extends keyof LcmOpOccsTable>(key: K, value: LcmOpOccsTable[K] | undefined) => {
    if (value !== undefined) cols[key] = value;
  };
  set('error', text(change.error));
  set('resource_changes', text(change.resourceChanges));
  set('changed_info', text(change.changedInfo));
  set('changed_ext_connectivity', text(change.changedExtConnectivity));
  set('grant_id', change.grantId);
  set('grant_request', text(change.grantRequest));
  set('grant', text(change.grant));
  set('placement_attempts', text(change.placementAttempts));
  set('progress', change.progress === undefined ? undefined : JSON.stringify(change.progress));
  set('job_state', change.jobState);
  set('lease_owner', change.leaseOwner);
  set('lease_until', change.leaseUntil);
  set('is_cancel_pending', change.isCancelPending);
  set('cancel_mode', change.cancelMode);
  return cols;
}

export class LcmStore {
  readonly major: LcmMajor;
  /** Table names (typed as v2's: every major's tables have the same columns). */
  readonly instances: 'vnf_instances_v2';
  readonly opOccs: 'vnf_lcm_op_occs_v2';
  /** The op occ table as a job queue: the op occ row is its job. */
  readonly jobs: JobTable;

  constructor(major: LcmMajor) {
    this.major = major;
    this.instances = `vnf_instances_${major}` as 'vnf_instances_v2';
    this.opOccs = `vnf_lcm_op_occs_${major}` as 'vnf_lcm_op_occs_v2';
    this.jobs = {
      table: this.opOccs,
      key: 'id',
      leasedStates: ['running'],
      reclaimExpired: false,
      versioned: true,
    };
  }

  // ------------------------------------------------------------------ instances

  async insertInstance(db: Executor, record: VnfInstanceRecord): Promise<void> {
    await db.insertInto(this.instances).values(instanceToRow(record)).execute();
  }

  async findInstance(db: Executor, id: string): Promise<VnfInstanceRecord | undefined> {
    const row = await db.selectFrom(this.instances).selectAll().where('id', '=', id).executeTakeFirst();
    return row ? instanceFromRow(row) : undefined;
  }

  /**
   * Takes the instance for op occ `opOccId` if nobody holds it: one conditional UPDATE, so two
   * requests racing for one instance cannot both win. False when it is held (or gone).
   */
  async hold(trx: Executor, instanceId: string, opOccId: string): Promise<boolean> {
    const result = await trx
      .updateTable(this.instances)
      .set((eb) => ({ busy_op_occ_id: opOccId, updated_at: nowIso(), version: eb('version', '+', 1) }))
      .where('id', '=', instanceId)
      .where('busy_op_occ_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Writes the instance's new state and releases it from `opOccId`. */
  async saveInstance(
    trx: Executor,
    record: VnfInstanceRecord,
    options: { release?: string } = {},
  ): Promise<void> {
    const row = instanceToRow(record);
    const { id: _id, project_id: _p, created_at: _c, version: _v, ...rest } = row;
    let query = trx
      .updateTable(this.instances)
      .set((eb) => ({
        ...rest,
        busy_op_occ_id: options.release ? null : row.busy_op_occ_id,
        updated_at: nowIso(),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', record.id);
    if (options.release) query = query.where('busy_op_occ_id', '=', options.release);
    await query.execute();
  }

  /** Releases the instance held by `opOccId` (no other change). */
  async release(trx: Executor, instanceId: string, opOccId: string): Promise<void> {
    await trx
      .updateTable(this.instances)
      .set((eb) => ({ busy_op_occ_id: null, updated_at: nowIso(), version: eb('version', '+', 1) }))
      .where('id', '=', instanceId)
      .where('busy_op_occ_id', '=', opOccId)
      .execute();
  }

  /** Deletes an idle NOT_INSTANTIATED instance; false when it is not (any more). */
  async deleteIdleInstance(trx: Executor, id: string): Promise<boolean> {
    const result = await trx
      .deleteFrom(this.instances)
      .where('id', '=', id)
      .where('busy_op_occ_id', 'is', null)
      .where('instantiation_state', '=', 'NOT_INSTANTIATED')
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Whether any instance of this major still uses package `pkgId`. */
  async packageInUse(db: Executor, pkgId: string): Promise<boolean> {
    const row = await db
      .selectFrom(this.instances)
      .select('id')
      .where('vnf_pkg_id', '=', pkgId)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  // ------------------------------------------------------------------ op occs

  async insertOpOcc(
    trx: Executor,
    record: OpOccRecord,
    extra: { progress?: Progress; queued: boolean },
  ): Promise<void> {
    await trx
      .insertInto(this.opOccs)
      .values({
        id: record.id,
        project_id: record.projectId,
        vnf_instance_id: record.vnfInstanceId,
        operation: record.operation,
        operation_state: record.operationState,
        state_entered_time: record.stateEnteredTime,
        start_time: record.startTime,
        is_automatic_invocation: record.isAutomaticInvocation,
        operation_params: JSON.stringify(record.operationParams),
        is_cancel_pending: false,
        cancel_mode: null,
        error: null,
        resource_changes: null,
        changed_info: null,
        changed_ext_connectivity: null,
        grant_id: null,
        grant_request: null,
        grant: null,
        placement_attempts: null,
        progress: JSON.stringify(extra.progress ?? emptyProgress()),
        job_state: extra.queued ? 'queued' : null,
        lease_owner: null,
        lease_until: null,
        attempts: 0,
        created_at: record.createdAt,
        updated_at: record.updatedAt,
        version: 1,
      })
      .execute();
  }

  async findOpOcc(db: Executor, id: string): Promise<OpOccRecord | undefined> {
    const row = await db.selectFrom(this.opOccs).selectAll().where('id', '=', id).executeTakeFirst();
    return row ? opOccFromRow(row) : undefined;
  }

  /** The op occ's operationState alone (what an event stream looks at between reads). */
  async findOpOccState(db: Executor, id: string): Promise<OperationState | undefined> {
    const row = await db
      .selectFrom(this.opOccs)
      .select('operation_state')
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.operation_state as OperationState | undefined;
  }

  /** The op occ with the engine's bookkeeping (progress, grant request and grant). */
  async findOpOccWork(
    db: Executor,
    id: string,
  ): Promise<
    { opOcc: OpOccRecord; progress: Progress; grantRequest?: GrantRequest; grant?: Grant } | undefined
  > {
    const row = await db.selectFrom(this.opOccs).selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return {
      opOcc: opOccFromRow(row),
      progress: parseProgress(row.progress),
      grantRequest: json<GrantRequest>(row.grant_request),
      grant: json<Grant>(row.grant),
    };
  }

  /**
   * Applies `change` when the op occ is in one of `from` (and, for a worker, still leased by
   * `owner`); false when it is not (another request or worker changed it first).
   */
  async changeOpOcc(
    trx: Executor,
    id: string,
    change: OpOccChange,
    guard: { from?: readonly OperationState[]; owner?: string } = {},
  ): Promise<boolean> {
    let query = trx
      .updateTable(this.opOccs)
      .set((eb) => ({ ...changeColumns(change, nowIso()), version: eb('version', '+', 1) }))
      .where('id', '=', id);
    if (guard.from) query = query.where('operation_state', 'in', guard.from as OperationState[]);
    if (guard.owner) query = query.where('lease_owner', '=', guard.owner);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Records a worker's progress (fenced by its lease) and reads back whether a cancel was asked
   * for, in one statement; undefined when the lease is lost.
   */
  async saveProgress(
    db: Executor,
    id: string,
    progress: Progress,
    owner: string,
  ): Promise<{ cancelMode?: CancelMode } | undefined> {
    const rows = await db
      .updateTable(this.opOccs)
      .set((eb) => ({
        progress: JSON.stringify(progress),
        updated_at: nowIso(),
        version: eb('version', '+', 1),
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .returning(['is_cancel_pending', 'cancel_mode'])
      .execute();
    const row = rows[0];
    if (!row) return undefined;
    return bool(row.is_cancel_pending)
      ? { cancelMode: (row.cancel_mode as CancelMode | null) ?? 'GRACEFUL' }
      : {};
  }

  // ------------------------------------------------------------------ jobs

  /** Op occs a worker may claim now: queued ones (a running one whose lease expired is recovered, not re-run). */
  claimable(db: Executor, limit: number, skipLocked: boolean): Promise<string[]> {
    return claimableJobs(db, this.jobs, limit, skipLocked);
  }

  /** Claims up to `limit` queued op occs at once (store/queue's claimJobs). */
  claimMany(
    db: Executor,
    limit: number,
    owner: string,
    leaseMs: number,
    skipLocked: boolean,
    /** Op occs this process runs already. */
    running: readonly string[],
  ): Promise<string[]> {
    return claimJobs(db, this.jobs, limit, owner, leaseMs, skipLocked, running);
  }

  claim(db: Executor, id: string, owner: string, leaseMs: number): Promise<boolean> {
    return claimJob(db, this.jobs, id, owner, leaseMs);
  }

  /** Extends the lease; returns the cancel request (if any), or undefined when the lease is lost. */
  async heartbeat(
    db: Executor,
    id: string,
    owner: string,
    leaseMs: number,
  ): Promise<{ cancelMode?: CancelMode } | undefined> {
    if (!(await renewJobLease(db, this.jobs, id, owner, leaseMs))) return undefined;
    const row = await db
      .selectFrom(this.opOccs)
      .select(['is_cancel_pending', 'cancel_mode'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return bool(row.is_cancel_pending) ? { cancelMode: (row.cancel_mode as CancelMode) ?? 'GRACEFUL' } : {};
  }

  /**
   * A worker's change that ends its job (the op occ final, or waiting for the user in
   * FAILED_TEMP), fenced by its lease: the job columns are released with the change.
   */
  complete(
    trx: Executor,
    id: string,
    owner: string,
    change: OpOccChange,
    from: readonly OperationState[],
  ): Promise<boolean> {
    return completeJob(trx, this.jobs, id, owner, this.#jobChange(change, from));
  }

  /** A worker hands its op occ back to the queue unfinished (it stops): another resumes it. */
  requeue(trx: Executor, id: string, owner: string, change: OpOccChange): Promise<boolean> {
    return failJob(trx, this.jobs, id, owner, { change: this.#jobChange(change) });
  }

  #jobChange(change: OpOccChange, from?: readonly OperationState[]) {
    return {
      set: changeColumns(change, nowIso()),
      ...(from ? { from: { column: 'operation_state', states: from } } : {}),
    };
  }

  /** Running op occs whose worker stopped heartbeating, with that worker and its lease end. */
  abandoned(db: Executor): Promise<AbandonedJob[]> {
    return abandonedJobs(db, this.jobs, 'running');
  }

  /** Takes an abandoned op occ over for recovery (one taker only). */
  takeOver(db: Executor, id: string, owner: string, leaseMs: number): Promise<boolean> {
    return takeOverJob(db, this.jobs, id, 'running', owner, leaseMs);
  }
}

/** One store per API major (LCM_MAJORS): the type asks a new major for its row. */
const STORE_OF: Readonly<Record<LcmMajor, LcmStore>> = { v2: new LcmStore('v2'), v1: new LcmStore('v1') };

export const LCM_V2 = STORE_OF.v2;
export const LCM_V1 = STORE_OF.v1;

/** The stores of every API major: package usage and the runner look at all of them. */
export const LCM_STORES: readonly LcmStore[] = Object.values(STORE_OF);

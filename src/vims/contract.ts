/**
 * The infrastructure-driver contract: what the LCM engine asks of a VIM driver (sim, OpenStack,
 * Kubernetes). The engine decides WHAT the VNF must look like (counts from the VNFD model, the
 * grant's zones and assets); the driver makes the VIM look like that and reports what changed.
 *
 * Rules every driver follows (the contract test suite in test/vims/ checks them):
 * - Idempotent and resumable: calling an operation again with the same `opOccId` after a partial
 *   failure continues from what exists (retry), it never duplicates resources.
 * - Every VIM resource a driver creates is tagged with the instance id and the op occ id that
 *   created it, and a driver keeps what it needs to undo an op occ's modifications (the sim: a
 *   journal of the rows before), so `rollback` removes exactly what that op occ added, restores
 *   what it changed, and touches nothing else.
 * - Ids: a VNFC's vnfcResourceInfo id is the engine's (NewVnfc.id) and survives heal, resize and
 *   rebuild — heal reports the VNFC MODIFIED with a new computeResource; vnfcInfo ids are
 *   `<vduId>-<vnfcResourceInfoId>`. vnfcResourceInfo is ordered newest VNFC first.
 * - resourceChanges are relative to `ctx.current` (see resource-changes.ts), so a retry reports
 *   the whole change of the op occ, not just its last attempt.
 * - Failures throw `InfraError` with the VIM's own message (e.g. Nova's "No valid host was
 *   found") and the resources created so far stay recorded in the returned/observable state. A
 *   placement failure (NO_VALID_HOST, or any failure of a server's creation) gives in its detail
 *   `{ vduId, vnfcId, zone, reason }` — the failing VNFC, the zone it was tried in and the VIM's
 *   reason — so that the engine can choose another zone and call again.
 * - `signal` aborts at the next VIM call boundary (cancel, lease lost); the driver throws
 *   `InfraError` with code `CANCELLED`.
 *
 * Types are SOL003 v3.3.1 shaped (a superset of v2.6.1); the API views trim them per version.
 */

import type {
  InstantiatedVnfInfo,
  ResourceChanges,
  ResourceHandle,
  ScaleInfo,
} from '../sol/instance-model.ts';

/** What every driver operation returns. */
export interface DriverResult {
  changes: ResourceChanges;
  /** The instance's instantiatedVnfInfo after the operation (undefined after terminate). */
  instantiatedVnfInfo?: InstantiatedVnfInfo;
}

// ---------------------------------------------------------------- inputs

/** A VIM connection with its credentials opened (never persisted or logged as such). */
export interface VimConnection {
  /** Key in the instance's vimConnectionInfo map. */
  id: string;
  vimId?: string;
  /** e.g. `BOSUN.SIM.V1`, `ETSINFV.OPENSTACK_KEYSTONE.V_3`, `ETSINFV.KUBERNETES.V_1`. */
  vimType: string;
  interfaceInfo?: Record<string, unknown>;
  accessInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

/** The grant as the driver needs it (SOL003 Grant reduced). */
export interface GrantedResources {
  grantId: string;
  /** zoneId → zone name at the VIM. */
  zones: { id: string; zoneId: string; vimConnectionId?: string }[];
  /** addResources[].resourceDefinitionId → zone id (key of `zones`). */
  zoneOf: Record<string, string>;
  /** vnfdSoftwareImageId (VDU/storage name) → VIM image id. */
  softwareImages: Record<string, string>;
  /** VDU name → VIM flavour id. */
  computeFlavours: Record<string, string>;
  /**
   * Host-level (NFVI_NODE) affinity and anti-affinity rules of the flavour, one group per rule
   * (a Nova server group on OpenStack): the driver places every member it creates by the policy.
   */
  serverGroups: ServerGroup[];
}

/** The policy of a server group; `soft-` ones are preferences (fallbackBestEffort). */
export type ServerGroupPolicy = 'anti-affinity' | 'soft-anti-affinity' | 'affinity' | 'soft-affinity';

/**
 * VNFCs the VIM keeps on distinct hosts (anti-affinity) or on one host (affinity). The id is the
 * VNFD rule's name, the same in every operation of an instance, so a later operation (scale out,
 * heal) places its new members in the same group as the existing ones.
 */
export interface ServerGroup {
  id: string;
  policy: ServerGroupPolicy;
  /** vnfcResourceInfo ids (NewVnfc ids) of every member the instance has after the operation. */
  members: string[];
}

/**
 * One new VNFC the engine wants (its id is the GrantRequest addResources id of its COMPUTE, so
 * the grant's zone applies to it).
 */
export interface NewVnfc {
  id: string;
  vduId: string;
  /** Storage node names to attach (one volume each). */
  storages: string[];
  /** VduCp node names to create ports for. */
  cps: string[];
}

/** External virtual link data from the request (SOL003 ExtVirtualLinkData, kept as sent). */
export type ExtVirtualLinkData = Record<string, unknown> & { id: string; resourceId: string };

export interface OperationContext {
  vim: VimConnection;
  instanceId: string;
  opOccId: string;
  /** The instance's current instantiatedVnfInfo (undefined before instantiate). */
  current?: InstantiatedVnfInfo;
  grant: GrantedResources;
  /** Aborted on cancel or when the runner loses its lease. */
  signal: AbortSignal;
  /** The VNFD (flavour-resolved) the operation works from, as the model of src/vnfd/model. */
  vnfd: import('../vnfd/model/vnfd.ts').Vnfd;
  flavourId: string;
  additionalParams?: Record<string, unknown>;
  /** The VNF package `vnfd` comes from (drivers that upload its images read its blob). */
  packageId?: string;
}

export interface InstantiatePlan {
  instantiationLevelId?: string;
  vnfcs: NewVnfc[];
  /** Internal VL node names to create (those not given as extManagedVirtualLinks). */
  virtualLinks: string[];
  extVirtualLinks: ExtVirtualLinkData[];
  extManagedVirtualLinks: Record<string, unknown>[];
  scaleStatus: ScaleInfo[];
  maxScaleLevels: ScaleInfo[];
  localizationLanguage?: string;
}

export interface TerminatePlan {
  terminationType: 'FORCEFUL' | 'GRACEFUL';
  /** Seconds the VNF gets to stop gracefully before its resources are removed. */
  gracefulTerminationTimeout?: number;
}

/** One scaling aspect an operation moves from one scale level to another. */
export interface AspectChange {
  aspectId: string;
  fromLevel: number;
  toLevel: number;
}

/**
 * A scale (SCALE: one aspect, in or out) or scale-to-level (every aspect whose level changes,
 * possibly some in and some out): the driver applies all of it in one operation, so a retry
 * resumes the whole change and a rollback undoes all of it.
 */
export interface ScalePlan {
  /** Every aspect whose scale level changes, with its levels before and after. */
  aspects: AspectChange[];
  /** VNFCs to add (aspects scaled out). */
  add: NewVnfc[];
  /** vnfcResourceInfo ids to remove (aspects scaled in; the engine picks the newest). */
  remove: string[];
  /** scaleStatus after the operation (every aspect of the flavour). */
  scaleStatus: ScaleInfo[];
}

export interface HealPlan {
  /** vnfcResourceInfo ids to heal; every VNFC when the whole VNF is healed. */
  vnfcs: string[];
  /** Also re-create the storages of the healed VNFCs. */
  includeStorage: boolean;
  cause?: string;
}

export interface ChangeFlavourPlan {
  newFlavourId: string;
  instantiationLevelId?: string;
  /** The VNF after the change, as for instantiate. */
  target: InstantiatePlan;
}

export interface ChangeExtConnPlan {
  extVirtualLinks: ExtVirtualLinkData[];
}

export interface ChangeVnfpkgPlan {
  /** The target package's VNFD and id. */
  vnfdId: string;
  vnfd: import('../vnfd/model/vnfd.ts').Vnfd;
  /** vnfcResourceInfo ids to replace with the new package's images/flavours. */
  vnfcs: string[];
}

export interface OperatePlan {
  changeStateTo: 'STARTED' | 'STOPPED';
  stopType?: 'FORCEFUL' | 'GRACEFUL';
  gracefulStopTimeout?: number;
  /** vnfcResourceInfo ids; every VNFC when empty. */
  vnfcs: string[];
}

/** Operations whose rollback a driver supports (the engine refuses others at the API). */
export type RollbackableOperation =
  | 'INSTANTIATE'
  | 'SCALE_OUT'
  | 'CHANGE_FLAVOUR'
  | 'CHANGE_EXT_CONN'
  | 'CHANGE_VNFPKG';

export type InfraErrorCode =
  | 'NO_VALID_HOST'
  | 'VIM_UNAVAILABLE'
  | 'VIM_OPERATION_FAILED'
  | 'VIM_TIMEOUT'
  | 'NOT_FOUND'
  | 'INVALID_REQUEST'
  | 'CANCELLED';

export class InfraError extends Error {
  readonly code: InfraErrorCode;
  /** Extra facts for the op occ error (e.g. the resource that failed). */
  readonly detail?: Record<string, unknown>;
  constructor(code: InfraErrorCode, message: string, detail?: Record<string, unknown>) {
    super(message);
    this.name = 'InfraError';
    this.code = code;
    this.detail = detail;
  }
}

/** Per-VNFC health the driver can observe (fault management raises alarms from it). */
export interface VnfcHealth {
  vnfcResourceInfoId: string;
  computeResource: ResourceHandle;
  state: 'ACTIVE' | 'SHUTOFF' | 'ERROR' | 'MISSING';
  host?: string;
  zoneId?: string;
  reason?: string;
}

/** What a driver does; the vimTypes it serves are its module's (src/vims/drivers/module.ts). */
export interface InfraDriver {
  instantiate(ctx: OperationContext, plan: InstantiatePlan): Promise<DriverResult>;
  terminate(ctx: OperationContext, plan: TerminatePlan): Promise<DriverResult>;
  scale(ctx: OperationContext, plan: ScalePlan): Promise<DriverResult>;
  heal(ctx: OperationContext, plan: HealPlan): Promise<DriverResult>;
  changeFlavour(ctx: OperationContext, plan: ChangeFlavourPlan): Promise<DriverResult>;
  changeExtConn(ctx: OperationContext, plan: ChangeExtConnPlan): Promise<DriverResult>;
  changeVnfpkg(ctx: OperationContext, plan: ChangeVnfpkgPlan): Promise<DriverResult>;
  operate(ctx: OperationContext, plan: OperatePlan): Promise<DriverResult>;
  /** Which operations this driver can roll back. */
  readonly rollbackable: readonly RollbackableOperation[];
  /**
   * Undoes what op occ `ctx.opOccId` did, restoring `ctx.current` (the instantiatedVnfInfo before
   * that op occ; undefined after rolling back an instantiate). Idempotent; an operation not in
   * `rollbackable` is an InfraError INVALID_REQUEST. Its changes are those the rollback made.
   */
  rollback(ctx: OperationContext, operation: RollbackableOperation): Promise<DriverResult>;
  /** Health of the instance's VNFCs, for fault management. */
  health(vim: VimConnection, instanceId: string, info: InstantiatedVnfInfo): Promise<VnfcHealth[]>;
  /**
   * Reads the instance back from a VIM that changes it by itself (Kubernetes reschedules pods):
   * the instantiatedVnfInfo the VIM shows when it differs from `info`, else undefined. A driver
   * whose VIM changes nothing on its own has none.
   */
  sync?(
    vim: VimConnection,
    instanceId: string,
    info: InstantiatedVnfInfo,
  ): Promise<InstantiatedVnfInfo | undefined>;
  /**
   * Names of the VIM's availability zones where compute resources can be placed (a zone with a
   * compute host up), for the NFVO to choose from when granting.
   */
  zones(vim: VimConnection): Promise<string[]>;
}

/**
 * What an LCM operation type is, as data and small functions: the instance states it needs, its
 * hook names, how it is accepted (checks made at the API, so a request that cannot succeed is
 * refused there), how the worker plans it (resources to grant and the driver plan), the driver
 * call and its rollback, and the instance it leaves behind. The engine (engine.ts) runs every
 * operation through the same steps (steps.ts).
 */

import type { Config } from '../config/load.ts';
import type { SealedSshSecrets } from '../drivers/mgmt/ssh/ssh-secrets.ts';
import type { ResourceDelta } from '../grant/grant-request.ts';
import type { Operation } from '../sol/lcm-operations.ts';
import type { Executor } from '../store/db/transaction.ts';
import type { StoredVimConnection } from '../vims/connection-info.ts';
import type { DriverResult, InfraDriver, OperationContext, RollbackableOperation } from '../vims/contract.ts';
import type { Flavour, Vnfd } from '../vnfd/model/vnfd.ts';
import type { ChangedInfo, InstantiationState, VnfInstanceRecord } from './model.ts';

export type Params = Record<string, unknown>;

/**
 * Facts found when a request is accepted that the engine keeps with the op occ (not shown to
 * clients). A type rather than an interface so that it reads as a plain record too.
 */
export type AcceptFacts = {
  /** The package the instance moves to (CHANGE_VNFPKG, MODIFY_INFO of vnfdId). */
  targetPkgId?: string;
  /** Whether a SCALE removes VNFCs. */
  scalesIn?: boolean;
  /** The VIM connections the request adds (null: removes), their credentials sealed. */
  vimConnectionInfo?: Record<string, StoredVimConnection | null>;
  /** The secrets of additionalParams.ssh, sealed (taken out of the params the op occ shows). */
  sshSecrets?: SealedSshSecrets;
};

/** A package as LCM needs it: identity, states, VNFD model. */
export interface LcmPackage {
  id: string;
  vnfdId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  onboardingState: string;
  operationalState: string;
  vnfd: Vnfd;
}

export interface AcceptContext {
  db: Executor;
  config: Config;
  instance: VnfInstanceRecord;
  /** The instance's package and VNFD. */
  pkg: LcmPackage;
  /** Finds a package by vnfdId in the instance's project (change_vnfpkg, modify vnfdId). */
  packageByVnfdId(vnfdId: string): Promise<LcmPackage | undefined>;
}

export interface Accepted {
  /** operationParams as stored (defaults filled in). */
  params: Params;
  /** Facts found at accept time that the engine keeps (not shown to clients), e.g. whether it scales in. */
  facts?: AcceptFacts;
}

export interface PlanContext {
  instance: VnfInstanceRecord;
  params: Params;
  pkg: LcmPackage;
  /** The target package (CHANGE_VNFPKG), else the instance's. */
  target: LcmPackage;
  /** The flavour the operation works in (the requested one for INSTANTIATE / CHANGE_FLAVOUR). */
  flavour: Flavour;
  newId(): string;
}

export interface Planned {
  /** What the grant request lists. */
  delta: ResourceDelta;
  /** The driver plan (InstantiatePlan, ScalePlan, …), stored as JSON in the op occ. */
  driverPlan: unknown;
  instantiationLevelId?: string;
}

export interface ApplyContext {
  instance: VnfInstanceRecord;
  params: Params;
  planned: Planned;
  result: DriverResult | undefined;
  target: LcmPackage;
  /** vimConnectionInfo the operation used (resolved and stored without credentials). */
  vimConnectionInfo: VnfInstanceRecord['vimConnectionInfo'];
}

export interface Applied {
  instance: VnfInstanceRecord;
  changedInfo?: ChangedInfo;
  changedExtConnectivity?: Record<string, unknown>[];
}

export interface OperationDef {
  operation: Operation;
  /** Prefix of its Vnflcm hooks: `<hook>_start`, `<hook>_end`, `<hook>_rollback_start`, `<hook>_rollback_end`. */
  hook: string;
  /** Instance states the operation may start in. */
  requires: readonly InstantiationState[];
  /** MODIFY_INFO starts in PROCESSING and asks no grant; the others start in STARTING. */
  granted: boolean;
  /**
   * It creates servers in the zones the grant chose: a zone found without room is replaced by
   * another and the driver called again (zone reselection).
   */
  placesServers?: boolean;
  /** Request params that name the flavour to work in (INSTANTIATE flavourId, CHANGE_FLAVOUR newFlavourId). */
  flavourParam?: string;
  /** API-time checks; returns the params to store. Throws ApiError. */
  accept(ctx: AcceptContext, request: Params): Promise<Accepted> | Accepted;
  /** The driver rollback this op occ needs, or why it cannot be rolled back. */
  rollback(
    params: Params,
    facts: AcceptFacts,
  ): { as: RollbackableOperation } | { none: true } | { refused: string };
  plan?(ctx: PlanContext): Planned;
  infra?(driver: InfraDriver, ctx: OperationContext, driverPlan: unknown): Promise<DriverResult>;
  apply(ctx: ApplyContext): Applied;
}

/**
 * The LCM domain: a VNF instance and an LCM operation occurrence as the engine sees them,
 * whatever API major they belong to. Shapes are SOL003 v3.3.1 (a superset of v2.6.1); the API
 * views trim and rename per major.
 */

import type { InstantiatedVnfInfo, ResourceChanges } from '../sol/instance-model.ts';
import type { Operation, OperationState } from '../sol/lcm-operations.ts';
import type { ProblemDetails } from '../sol/problem.ts';
import type { StoredVimConnection } from '../vims/connection-info.ts';
import type { PlacementAttempt } from './placement/attempts.ts';

export type InstantiationState = 'NOT_INSTANTIATED' | 'INSTANTIATED';

export type CancelMode = 'GRACEFUL' | 'FORCEFUL';

export interface VnfInstanceRecord {
  id: string;
  projectId: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfdId: string;
  vnfPkgId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  instantiationState: InstantiationState;
  instantiatedVnfInfo?: InstantiatedVnfInfo;
  /** Map key → connection (the v2 shape; v1 views turn it into an array). */
  vimConnectionInfo: Record<string, StoredVimConnection>;
  vnfConfigurableProperties: Record<string, unknown>;
  metadata: Record<string, unknown>;
  extensions: Record<string, unknown>;
  busyOpOccId?: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** SOL003 LcmOpOcc.changedInfo (VnfInfoModifications). */
export interface ChangedInfo {
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfConfigurableProperties?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  vimConnectionInfo?: Record<string, unknown>;
  vnfdId?: string;
  vnfProvider?: string;
  vnfProductName?: string;
  vnfSoftwareVersion?: string;
  vnfdVersion?: string;
  vnfcInfoModifications?: Record<string, unknown>[];
}

export interface OpOccRecord {
  id: string;
  projectId: string;
  vnfInstanceId: string;
  operation: Operation;
  operationState: OperationState;
  stateEnteredTime: string;
  startTime: string;
  isAutomaticInvocation: boolean;
  /** The request body as accepted (defaults filled in). */
  operationParams: Record<string, unknown>;
  isCancelPending: boolean;
  cancelMode?: CancelMode;
  error?: ProblemDetails;
  resourceChanges?: ResourceChanges;
  changedInfo?: ChangedInfo;
  changedExtConnectivity?: Record<string, unknown>[];
  grantId?: string;
  /** Zones tried when one had no room for a server, oldest first. */
  placementAttempts?: PlacementAttempt[];
  jobState?: 'queued' | 'running';
  leaseOwner?: string;
  leaseUntil?: string;
  attempts: number;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const nowIso = () => new Date().toISOString();

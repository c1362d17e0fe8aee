/**
 * The parts of SOL003 v3.3.1 VnfInstance and VnfLcmOpOcc (as /vnflcm/v2 answers them) the
 * console reads.
 */
import type { OperationState } from '../../../../src/sol/lcm-operations.ts';
import type { ProblemDetails } from '../problem.ts';

export const INSTANCES_PATH = '/vnflcm/v2/vnf_instances';
export const OP_OCCS_PATH = '/vnflcm/v2/vnf_lcm_op_occs';

export interface ResourceHandle {
  vimConnectionId?: string;
  resourceProviderId?: string;
  resourceId: string;
  vimLevelResourceType?: string;
}

export interface VnfcCpInfo {
  id: string;
  cpdId: string;
  vnfExtCpId?: string;
  vnfLinkPortId?: string;
  cpProtocolInfo?: { ipOverEthernet?: { ipAddresses?: { addresses?: string[] }[] } }[];
}

export interface VnfcResourceInfo {
  id: string;
  vduId: string;
  zoneId?: string;
  computeResource: ResourceHandle;
  storageResourceIds?: string[];
  vnfcCpInfo?: VnfcCpInfo[];
  metadata?: Record<string, unknown>;
}

export interface VnfLinkPortInfo {
  id: string;
  resourceHandle: ResourceHandle;
  cpInstanceId?: string;
  cpInstanceType?: 'VNFC_CP' | 'EXT_CP';
}

export interface VnfVirtualLinkResourceInfo {
  id: string;
  vnfVirtualLinkDescId: string;
  networkResource: ResourceHandle;
  vnfLinkPorts?: VnfLinkPortInfo[];
}

export interface VnfExtCpInfo {
  id: string;
  cpdId: string;
  associatedVnfcCpId?: string;
}

export interface ScaleInfo {
  aspectId: string;
  scaleLevel: number;
}

export interface VnfcInfo {
  id: string;
  vduId: string;
  vnfcResourceInfoId: string;
  vnfcState: 'STARTED' | 'STOPPED';
}

export interface InstantiatedVnfInfo {
  flavourId: string;
  vnfState: 'STARTED' | 'STOPPED';
  scaleStatus?: ScaleInfo[];
  maxScaleLevels?: ScaleInfo[];
  extCpInfo: VnfExtCpInfo[];
  extVirtualLinkInfo?: { id: string; resourceHandle: ResourceHandle }[];
  vnfcResourceInfo?: VnfcResourceInfo[];
  vnfVirtualLinkResourceInfo?: VnfVirtualLinkResourceInfo[];
  virtualStorageResourceInfo?: { id: string; virtualStorageDescId: string }[];
  vnfcInfo?: VnfcInfo[];
  metadata?: Record<string, unknown>;
}

export interface VimConnectionInfo {
  vimId?: string;
  vimType: string;
  interfaceInfo?: Record<string, unknown>;
  extra?: Record<string, unknown>;
}

export interface VnfInstance {
  id: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  vnfdId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  vnfConfigurableProperties?: Record<string, unknown>;
  vimConnectionInfo?: Record<string, VimConnectionInfo>;
  instantiationState: 'NOT_INSTANTIATED' | 'INSTANTIATED';
  instantiatedVnfInfo?: InstantiatedVnfInfo;
  metadata?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  _links: Record<string, { href: string }>;
}

export type { OperationState };

export interface VnfLcmOpOcc {
  id: string;
  operationState: OperationState;
  stateEnteredTime: string;
  startTime: string;
  vnfInstanceId: string;
  operation: string;
  isAutomaticInvocation: boolean;
  isCancelPending: boolean;
  error?: ProblemDetails;
  _links: Record<string, { href: string }>;
}

/** The op occ has stopped: it ended, or waits (FAILED_TEMP) for a retry, rollback or fail. */
export const RESTING_STATES: readonly OperationState[] = [
  'COMPLETED',
  'FAILED',
  'ROLLED_BACK',
  'FAILED_TEMP',
];

/** The VIMs an instance uses, as one line ("sim-default (ETSINFV.SIM…)"). */
export function vimsOf(instance: VnfInstance): string {
  const vims = Object.entries(instance.vimConnectionInfo ?? {});
  if (!vims.length) return '—';
  return vims.map(([id, v]) => `${v.vimId ?? id} (${v.vimType})`).join(', ');
}

/**
 * Helpers for the /vnflcm/v2 tests: onboard a sample, create instances, start operations and
 * follow their op occs to a final (or any wanted) state.
 */
import { onboard, type PkgInfo, sample } from '../vnfpkgm/support.ts';
import { lcmClient } from './lcm-client.ts';

export const V2 = '/vnflcm/v2';
export const H = { Version: '2.0.0' };
/** Two VDUs (VDU1 scalable 1..3 with aspect VDU1_scale, VDU2 fixed), volumes, three internal VLs, hooks. */
export const MAIN_SAMPLE = 'sol_v2_common__basic_lcms_max_individual_vnfc.zip';

export interface Instance {
  id: string;
  vnfdId: string;
  instantiationState: string;
  instantiatedVnfInfo?: {
    flavourId: string;
    vnfState: string;
    scaleStatus?: { aspectId: string; scaleLevel: number }[];
    maxScaleLevels?: { aspectId: string; scaleLevel: number }[];
    vnfcResourceInfo?: {
      id: string;
      vduId: string;
      zoneId?: string;
      computeResource: { resourceId: string };
      metadata?: Record<string, unknown>;
    }[];
    vnfcInfo?: { id: string; vduId: string; vnfcResourceInfoId: string; vnfcState: string }[];
    vnfVirtualLinkResourceInfo?: { id: string; vnfVirtualLinkDescId: string }[];
    virtualStorageResourceInfo?: { id: string }[];
    extCpInfo?: unknown[];
  };
  vimConnectionInfo?: Record<string, Record<string, unknown>>;
  metadata?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  vnfConfigurableProperties?: Record<string, unknown>;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  _links: Record<string, { href: string }>;
}

export interface OpOcc {
  id: string;
  operationState: string;
  operation: string;
  vnfInstanceId: string;
  grantId?: string;
  isCancelPending: boolean;
  cancelMode?: string;
  operationParams: Record<string, unknown>;
  error?: { status: number; detail: string; [k: string]: unknown };
  resourceChanges?: {
    affectedVnfcs: { id: string; vduId: string; changeType: string }[];
    affectedVirtualLinks: { id: string; changeType: string }[];
    affectedVirtualStorages: { id: string; changeType: string }[];
    affectedExtLinkPorts: unknown[];
  };
  changedInfo?: Record<string, unknown>;
  _links: Record<string, { href: string }>;
}

const packages = new Map<string, Promise<PkgInfo>>();

/** Onboards a sample once per server. */
export function onboardOnce(base: string, file = MAIN_SAMPLE): Promise<PkgInfo> {
  const key = `${base} ${file}`;
  let found = packages.get(key);
  if (!found) {
    found = onboard(base, sample(file)).then((p) => {
      if (p.onboardingState !== 'ONBOARDED')
        throw new Error(`${file}: ${JSON.stringify(p.onboardingFailureDetails)}`);
      return p;
    });
    packages.set(key, found);
  }
  return found;
}

export { FINAL_STATES } from './lcm-client.ts';

export const { createInstance, getInstance, getOpOcc, startTask, waitOpOcc, runTask } = lcmClient<
  Instance,
  OpOcc
>(V2, H);

export const INSTANTIATE = { flavourId: 'simple' };

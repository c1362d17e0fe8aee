/**
 * Helpers for the /vnflcm/v2 tests: onboard a sample, create instances, start operations and
 * follow their op occs to a final (or any wanted) state.
 */
import { http } from '../../support/http.ts';
import { onboard, type PkgInfo, sample } from '../vnfpkgm/support.ts';

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

export async function createInstance(
  base: string,
  vnfdId: string,
  body: Record<string, unknown> = {},
): Promise<Instance> {
  const res = await http<Instance>(base, 'POST', `${V2}/vnf_instances`, {
    headers: H,
    body: { vnfdId, ...body },
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body;
}

export async function getInstance(base: string, id: string): Promise<Instance> {
  const res = await http<Instance>(base, 'GET', `${V2}/vnf_instances/${id}`, { headers: H });
  if (res.status !== 200) throw new Error(`show instance: ${res.status} ${res.text}`);
  return res.body;
}

export async function getOpOcc(base: string, id: string): Promise<OpOcc> {
  const res = await http<OpOcc>(base, 'GET', `${V2}/vnf_lcm_op_occs/${id}`, { headers: H });
  if (res.status !== 200) throw new Error(`show op occ: ${res.status} ${res.text}`);
  return res.body;
}

/** POSTs a task; returns the op occ id from Location (throws unless 202). */
export async function startTask(
  base: string,
  instanceId: string,
  task: string,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await http(base, 'POST', `${V2}/vnf_instances/${instanceId}/${task}`, { headers: H, body });
  if (res.status !== 202) throw new Error(`${task}: ${res.status} ${res.text}`);
  const location = res.headers.get('location') ?? '';
  return location.slice(location.lastIndexOf('/') + 1);
}

export const FINAL_STATES = ['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'];

/** Polls the op occ until it is in one of `states`. */
export async function waitOpOcc(
  base: string,
  id: string,
  states = FINAL_STATES,
  timeoutMs = 20000,
): Promise<OpOcc> {
  const until = Date.now() + timeoutMs;
  let last: OpOcc | undefined;
  while (Date.now() < until) {
    last = await getOpOcc(base, id);
    if (states.includes(last.operationState)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(
    `op occ ${id} stayed ${last?.operationState} (wanted ${states.join('|')}): ${JSON.stringify(last?.error)}`,
  );
}

/** Starts a task and waits for its op occ to end. */
export async function runTask(
  base: string,
  instanceId: string,
  task: string,
  body: Record<string, unknown>,
): Promise<OpOcc> {
  return waitOpOcc(base, await startTask(base, instanceId, task, body));
}

export const INSTANTIATE = { flavourId: 'simple' };

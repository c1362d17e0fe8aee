/**
 * Helpers for the /vnflcm/v1 tests (SOL002/SOL003 v2.6.1 shapes): create instances, start
 * operations and follow their op occs, on the same onboarded samples as the v2 tests.
 */
import { http } from '../../support/http.ts';

export const V1 = '/vnflcm/v1';
/** The Version header the Tacker client sends on /vnflcm/v1 (optional there). */
export const H1 = { Version: '1.3.0' };

type Handle = { vimConnectionId: string; resourceId: string; vimLevelResourceType?: string };

export interface InstanceV1 {
  id: string;
  vnfdId: string;
  vnfPkgId: string;
  vnfInstanceName?: string;
  vnfInstanceDescription?: string;
  instantiationState: string;
  instantiatedVnfInfo?: {
    flavourId: string;
    vnfState: string;
    scaleStatus?: { aspectId: string; scaleLevel: number }[];
    extCpInfo: { id: string; cpdId: string; cpProtocolInfo: unknown[]; [k: string]: unknown }[];
    extVirtualLinkInfo?: { id: string; resourceHandle: Handle; [k: string]: unknown }[];
    vnfcResourceInfo?: {
      id: string;
      vduId: string;
      computeResource: Handle;
      metadata?: Record<string, unknown>;
      [k: string]: unknown;
    }[];
    vnfVirtualLinkResourceInfo?: { id: string; vnfVirtualLinkDescId: string }[];
    virtualStorageResourceInfo?: { id: string }[];
    [k: string]: unknown;
  };
  vimConnectionInfo?: { id: string; vimId?: string; vimType: string; [k: string]: unknown }[];
  metadata?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
  vnfConfigurableProperties?: Record<string, unknown>;
  _links: Record<string, { href: string }>;
}

export interface OpOccV1 {
  id: string;
  operationState: string;
  operation: string;
  vnfInstanceId: string;
  grantId?: string;
  isCancelPending: boolean;
  operationParams: Record<string, unknown>;
  error?: { status: number; detail: string; [k: string]: unknown };
  resourceChanges?: {
    affectedVnfcs: { id: string; vduId: string; changeType: string; [k: string]: unknown }[];
    affectedVirtualLinks: { id: string; changeType: string }[];
    affectedVirtualStorages: { id: string; changeType: string }[];
    [k: string]: unknown;
  };
  changedInfo?: Record<string, unknown>;
  changedExtConnectivity?: { id: string; [k: string]: unknown }[];
  _links: Record<string, { href: string }>;
}

export async function createInstanceV1(
  base: string,
  vnfdId: string,
  body: Record<string, unknown> = {},
): Promise<InstanceV1> {
  const res = await http<InstanceV1>(base, 'POST', `${V1}/vnf_instances`, {
    headers: H1,
    body: { vnfdId, ...body },
  });
  if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  return res.body;
}

export async function getInstanceV1(base: string, id: string): Promise<InstanceV1> {
  const res = await http<InstanceV1>(base, 'GET', `${V1}/vnf_instances/${id}`, { headers: H1 });
  if (res.status !== 200) throw new Error(`show instance: ${res.status} ${res.text}`);
  return res.body;
}

export async function getOpOccV1(base: string, id: string): Promise<OpOccV1> {
  const res = await http<OpOccV1>(base, 'GET', `${V1}/vnf_lcm_op_occs/${id}`, { headers: H1 });
  if (res.status !== 200) throw new Error(`show op occ: ${res.status} ${res.text}`);
  return res.body;
}

/** The op occ id at the end of a Location header. */
export const idOf = (location: string | null) =>
  (location ?? '').slice((location ?? '').lastIndexOf('/') + 1);

/** POSTs a task; returns the op occ id from Location (throws unless 202). */
export async function startTaskV1(
  base: string,
  instanceId: string,
  task: string,
  body: Record<string, unknown>,
): Promise<string> {
  const res = await http(base, 'POST', `${V1}/vnf_instances/${instanceId}/${task}`, { headers: H1, body });
  if (res.status !== 202) throw new Error(`${task}: ${res.status} ${res.text}`);
  return idOf(res.headers.get('location'));
}

export const FINAL_STATES = ['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'];

/** Polls the op occ until it is in one of `states`. */
export async function waitOpOccV1(
  base: string,
  id: string,
  states = FINAL_STATES,
  timeoutMs = 20000,
): Promise<OpOccV1> {
  const until = Date.now() + timeoutMs;
  let last: OpOccV1 | undefined;
  while (Date.now() < until) {
    last = await getOpOccV1(base, id);
    if (states.includes(last.operationState)) return last;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(
    `op occ ${id} stayed ${last?.operationState} (wanted ${states.join('|')}): ${JSON.stringify(last?.error)}`,
  );
}

/** Starts a task and waits for its op occ to end. */
export async function runTaskV1(
  base: string,
  instanceId: string,
  task: string,
  body: Record<string, unknown>,
): Promise<OpOccV1> {
  return waitOpOccV1(base, await startTaskV1(base, instanceId, task, body));
}

/** An external VL in the v2.6.1 shape: cpConfig is an array. */
export const extVirtualLinkV1 = (id: string, network: string, cpdId = 'VDU1_CP1') => ({
  id,
  resourceId: network,
  extCps: [
    {
      cpdId,
      cpConfig: [
        {
          cpProtocolData: [
            {
              layerProtocol: 'IP_OVER_ETHERNET',
              ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
            },
          ],
        },
      ],
    },
  ],
});

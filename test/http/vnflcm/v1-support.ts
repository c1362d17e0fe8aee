/**
 * Helpers for the /vnflcm/v1 tests (SOL002/SOL003 v2.6.1 shapes): create instances, start
 * operations and follow their op occs, on the same onboarded samples as the v2 tests.
 */
import { lcmClient } from './lcm-client.ts';
import type { OpOcc } from './lcm-support.ts';

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
    /** 1..N in v2.6.1: absent when the VNF has no external CP. */
    extCpInfo?: { id: string; cpdId: string; cpProtocolInfo: unknown[]; [k: string]: unknown }[];
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

/** The v2 op occ's attributes, with the v2.6.1 resource changes and changedExtConnectivity. */
export interface OpOccV1 extends Omit<OpOcc, 'resourceChanges'> {
  resourceChanges?: {
    affectedVnfcs: { id: string; vduId: string; changeType: string; [k: string]: unknown }[];
    affectedVirtualLinks: { id: string; virtualLinkDescId: string; changeType: string }[];
    affectedVirtualStorages: { id: string; changeType: string }[];
    [k: string]: unknown;
  };
  changedExtConnectivity?: { id: string; [k: string]: unknown }[];
}

export { FINAL_STATES, idOf } from './lcm-client.ts';

export const {
  createInstance: createInstanceV1,
  getInstance: getInstanceV1,
  getOpOcc: getOpOccV1,
  startTask: startTaskV1,
  waitOpOcc: waitOpOccV1,
  runTask: runTaskV1,
} = lcmClient<InstanceV1, OpOccV1>(V1, H1);

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

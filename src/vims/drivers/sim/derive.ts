/**
 * The instance's instantiatedVnfInfo, read from what the simulated VIM holds: the stack's
 * parameters plus its servers, volumes, networks and ports. Every id cross-reference is built
 * here once (vnfcCpInfo ↔ link ports ↔ extCpInfo ↔ extLinkPorts, storages ↔ VNFCs). An
 * external CP is a VNFC's (a VduCp on an external VL: associatedVnfcCpId) or the VNF's own (a
 * VnfExtCp node: associatedVnfVirtualLinkId, the internal VL it exposes).
 * vnfcResourceInfo is ordered newest VNFC first (as Tacker does), the rest by id.
 */

import type {
  CpProtocolInfo,
  ExtVirtualLinkInfo,
  InstantiatedVnfInfo,
  ResourceHandle,
  VirtualStorageResourceInfo,
  VnfcInfo,
  VnfcResourceInfo,
  VnfExtCpInfo,
  VnfLinkPortInfo,
  VnfVirtualLinkResourceInfo,
} from '../../../sol/instance-model.ts';
import type { SimPortsTable } from '../../../store/db/tables.ts';
import { RESOURCE_TYPES, vnfcCpInfoId, vnfcInfoId } from './ids.ts';
import { currentPorts, currentServers, currentVolumes, type InstanceState, newestFirst } from './state.ts';

export interface PortIp {
  ip: string;
  subnetId: string;
  dynamic: boolean;
}

const handle = (vimConnectionId: string, resourceId: string, type: string): ResourceHandle => ({
  vimConnectionId,
  resourceId,
  vimLevelResourceType: type,
});

export function protocolInfo(port: SimPortsTable): CpProtocolInfo[] {
  const ips = JSON.parse(port.ips) as PortIp[];
  return [
    {
      layerProtocol: 'IP_OVER_ETHERNET',
      ipOverEthernet: {
        macAddress: port.mac,
        ipAddresses: ips.map((a) => ({
          type: 'IPV4' as const,
          addresses: [a.ip],
          isDynamic: a.dynamic,
          subnetId: a.subnetId,
        })),
      },
    },
  ];
}

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The VNF's own external CP ports (VnfExtCp nodes, not a VNFC's CP): the newest per CP.
 * Detached supplied ports lose their instance, so every port here is the instance's.
 */
function vnfExtCpPorts(state: InstanceState): SimPortsTable[] {
  const out = new Map<string, SimPortsTable>();
  for (const p of state.ports) {
    if (p.vnfc_id === null && p.cpd_id !== null && p.ext_vl_id && !out.has(p.cpd_id)) out.set(p.cpd_id, p);
  }
  return [...out.values()];
}

/**
 * `keep` is the engine's current info: fields the engine owns (vnfcConfigurableProperties)
 * are carried over from it. `exposes` maps a VnfExtCp to the internal VL it exposes
 * (its `internal_virtual_link`), for extCpInfo.associatedVnfVirtualLinkId.
 */
export function deriveInfo(
  state: InstanceState,
  vimConnectionId: string,
  keep?: InstantiatedVnfInfo,
  exposes: Record<string, string | undefined> = {},
): InstantiatedVnfInfo | undefined {
  const { stack, params } = state;
  if (!stack || !params) return undefined;
  const servers = [...currentServers(state).values()].sort((a, b) => b.seq - a.seq || byId(a, b));
  const volumes = currentVolumes(state);
  const ports = currentPorts(state);
  const present = new Set(servers.map((s) => s.vnfc_id));
  const h = (id: string, type: string) => handle(vimConnectionId, id, type);
  const linkPortIdOf = (port: SimPortsTable) => {
    const ext = params.extVirtualLinks.find((e) => e.id === port.ext_vl_id);
    const given = (
      ext?.extLinkPorts as { id: string; resourceHandle?: { resourceId?: string } }[] | undefined
    )?.find((p) => p.resourceHandle?.resourceId === port.id);
    return given?.id ?? port.id;
  };
  /** An external CP's info; `association` ties it to a VNFC's CP or to the internal VL it exposes. */
  const extCpOf = (port: SimPortsTable, cpdId: string, association: Partial<VnfExtCpInfo>): VnfExtCpInfo => ({
    id: port.id,
    cpdId,
    ...(port.cp_config_id ? { cpConfigId: port.cp_config_id } : {}),
    cpProtocolInfo: protocolInfo(port),
    extLinkPortId: linkPortIdOf(port),
    ...association,
  });

  const vnfcResourceInfo: VnfcResourceInfo[] = [];
  const extCpInfo: VnfExtCpInfo[] = [];
  const storages: VirtualStorageResourceInfo[] = [];
  for (const server of servers) {
    const vnfc = server.vnfc_id;
    const storageIds = state.volumes
      .filter((v) => v.vnfc_id === vnfc && volumes.get(v.storage_id) === v)
      .map((v) => v.storage_id)
      .sort();
    for (const sid of storageIds) {
      const vol = volumes.get(sid);
      if (!vol) continue;
      storages.push({
        id: sid,
        virtualStorageDescId: vol.desc_id,
        storageResource: h(vol.id, RESOURCE_TYPES.volume),
        metadata: {
          sizeGb: vol.size_gb,
          ...(vol.image_id ? { image: vol.image_id } : {}),
          opOccId: vol.op_occ_id,
        },
      });
    }
    const cps = (JSON.parse(server.cps) as string[]).map((cpdId) => {
      const port = ports.get(`${vnfc}/${cpdId}`);
      const id = vnfcCpInfoId(cpdId, vnfc);
      if (!port) return { id, cpdId };
      if (port.ext_vl_id) {
        extCpInfo.push(extCpOf(port, cpdId, { associatedVnfcCpId: id }));
        return { id, cpdId, vnfExtCpId: port.id, cpProtocolInfo: protocolInfo(port) };
      }
      return { id, cpdId, vnfLinkPortId: port.id, cpProtocolInfo: protocolInfo(port) };
    });
    vnfcResourceInfo.push({
      id: vnfc,
      vduId: server.vdu_id,
      zoneId: server.zone,
      computeResource: h(server.id, RESOURCE_TYPES.server),
      ...(storageIds.length ? { storageResourceIds: storageIds } : {}),
      vnfcCpInfo: cps,
      metadata: {
        zone: server.zone,
        host: server.host,
        flavor: server.flavor_id,
        ...(server.image_id ? { image: server.image_id } : {}),
        serverName: server.name,
        opOccId: server.op_occ_id,
      },
    });
  }

  const vnfPorts = vnfExtCpPorts(state);
  const networkOf = (descId: string | undefined) =>
    newestFirst(state.networks.filter((n) => n.desc_id === descId))[0]?.id;
  for (const port of vnfPorts) {
    const cpdId = port.cpd_id as string;
    const vl = networkOf(exposes[cpdId]);
    extCpInfo.push(extCpOf(port, cpdId, vl ? { associatedVnfVirtualLinkId: vl } : {}));
  }
  const onVnf = new Set(vnfPorts.map((p) => p.id));

  const linkPortsOn = (networkId: string): VnfLinkPortInfo[] =>
    [...ports.values()]
      .filter((p) => p.network_id === networkId && !p.ext_vl_id && p.vnfc_id && present.has(p.vnfc_id))
      .map((p) => ({
        id: p.id,
        resourceHandle: h(p.id, RESOURCE_TYPES.port),
        cpInstanceId: vnfcCpInfoId(p.cpd_id as string, p.vnfc_id as string),
        cpInstanceType: 'VNFC_CP' as const,
      }))
      .sort(byId);

  const vnfVirtualLinkResourceInfo: VnfVirtualLinkResourceInfo[] = [...state.networks]
    .sort((a, b) => (a.desc_id < b.desc_id ? -1 : a.desc_id > b.desc_id ? 1 : byId(a, b)))
    .map((n) => ({
      id: n.id,
      vnfVirtualLinkDescId: n.desc_id,
      networkResource: h(n.id, RESOURCE_TYPES.network),
      vnfLinkPorts: linkPortsOn(n.id),
      metadata: { cidr: n.cidr, opOccId: n.op_occ_id },
    }));

  const extPorts = [...ports.values(), ...vnfPorts].filter(
    (p) => p.ext_vl_id && (p.vnfc_id ? present.has(p.vnfc_id) : onVnf.has(p.id)),
  );
  const extLinkPortsOf = (extVlId: string) =>
    extPorts
      .filter((p) => p.ext_vl_id === extVlId)
      .map((p) => ({ id: linkPortIdOf(p), resourceHandle: h(p.id, RESOURCE_TYPES.port), cpInstanceId: p.id }))
      .sort(byId);
  const extVirtualLinkInfo: ExtVirtualLinkInfo[] = params.extVirtualLinks.map((e) => ({
    id: e.id,
    resourceHandle: {
      vimConnectionId: (e.vimConnectionId as string | undefined) ?? vimConnectionId,
      resourceId: e.resourceId,
      vimLevelResourceType: RESOURCE_TYPES.network,
    },
    extLinkPorts: extLinkPortsOf(e.id),
    currentVnfExtCpData: (e.extCps as Record<string, unknown>[] | undefined) ?? [],
  }));
  // Ports on an external VL the stack's parameters do not list yet (a change interrupted before
  // its stack update) are shown on it all the same — the VIM holds them, and a rollback that
  // removes them reports them.
  const listed = new Set(params.extVirtualLinks.map((e) => e.id));
  for (const port of extPorts) {
    const extVlId = port.ext_vl_id as string;
    if (listed.has(extVlId)) continue;
    listed.add(extVlId);
    extVirtualLinkInfo.push({
      id: extVlId,
      resourceHandle: h(port.network_id, RESOURCE_TYPES.network),
      extLinkPorts: extLinkPortsOf(extVlId),
      currentVnfExtCpData: [],
    });
  }

  const extManagedVirtualLinkInfo = params.extManagedVirtualLinks.map((e) => ({
    id: e.id as string,
    vnfVirtualLinkDescId: e.vnfVirtualLinkDescId as string,
    networkResource: {
      vimConnectionId: (e.vimConnectionId as string | undefined) ?? vimConnectionId,
      resourceId: e.resourceId as string,
      vimLevelResourceType: RESOURCE_TYPES.network,
    },
    vnfLinkPorts: linkPortsOn(e.resourceId as string),
  }));

  const kept = new Map((keep?.vnfcInfo ?? []).map((v) => [v.id, v.vnfcConfigurableProperties]));
  const vnfcInfo: VnfcInfo[] = servers.map((s) => {
    const id = vnfcInfoId(s.vdu_id, s.vnfc_id);
    const props = kept.get(id);
    return {
      id,
      vduId: s.vdu_id,
      vnfcResourceInfoId: s.vnfc_id,
      vnfcState: s.power === 'off' ? 'STOPPED' : 'STARTED',
      ...(props ? { vnfcConfigurableProperties: props } : {}),
    };
  });

  const allStopped = vnfcInfo.length > 0 && vnfcInfo.every((v) => v.vnfcState === 'STOPPED');
  return {
    flavourId: params.flavourId,
    vnfState: allStopped ? 'STOPPED' : 'STARTED',
    scaleStatus: params.scaleStatus,
    maxScaleLevels: params.maxScaleLevels,
    extCpInfo: extCpInfo.sort(byId),
    extVirtualLinkInfo,
    ...(extManagedVirtualLinkInfo.length ? { extManagedVirtualLinkInfo } : {}),
    vnfcResourceInfo,
    vnfVirtualLinkResourceInfo,
    virtualStorageResourceInfo: storages.sort(byId),
    vnfcInfo,
    ...(params.localizationLanguage ? { localizationLanguage: params.localizationLanguage } : {}),
    metadata: { stackId: stack.id, stackName: stack.name },
  };
}

/**
 * The instance's instantiatedVnfInfo read from the real stack: its state parameter says which
 * VNFC each resource holds; Heat's resources (down to the nested stacks, each VNFC's found by
 * vnfc-resources.ts: its own nested stack, its member of a per-VDU scaling group, or the top
 * level) give the server, port, volume and network ids; Nova gives each server's host, zone,
 * image and power state, Neutron each port's MAC and addresses. Every cross-reference (VNFC CP ↔ link port ↔ VL, VNFC CP ↔
 * external CP ↔ external link port, VNFC ↔ storages) is built here once. A VNFC whose server
 * Heat has not made (a failed or interrupted action) is not reported.
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
  VnfVirtualLinkResourceInfo,
} from '../../../sol/instance-model.ts';
import type { OpenStackClient } from './client/client.ts';
import type { Stack } from './client/heat.ts';
import type { Port } from './client/neutron.ts';
import type { Server } from './client/nova.ts';
import { RESOURCE_TYPES, storageInfoId, vnfcCpInfoId, vnfcInfoId } from './names.ts';
import type { StackState } from './stack-state.ts';
import { serverIn, stackIdOf, vnfcScopes } from './vnfc-resources.ts';

/** Port ids a Neutron list call filters on (its URL stays a few KiB). */
const PORTS_A_CALL = 50;

const byId = <T extends { id: string }>(a: T, b: T) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function protocolInfo(port: Port): CpProtocolInfo[] {
  return [
    {
      layerProtocol: 'IP_OVER_ETHERNET',
      ipOverEthernet: {
        macAddress: port.mac_address,
        ipAddresses: port.fixed_ips.map((ip) => ({
          type: ip.ip_address.includes(':') ? ('IPV6' as const) : ('IPV4' as const),
          addresses: [ip.ip_address],
          isDynamic: true,
          subnetId: ip.subnet_id,
        })),
      },
    },
  ];
}

/** Which external VL lists a CP, and the cpConfig id it gives it. */
function extLinkOf(state: StackState, cpdId: string) {
  for (const link of state.extVirtualLinks) {
    const cp = (
      (link.extCps as { cpdId?: string; cpConfig?: Record<string, unknown> }[] | undefined) ?? []
    ).find((c) => c.cpdId === cpdId);
    if (cp) return { link, cpConfigId: Object.keys(cp.cpConfig ?? {})[0] };
  }
  return undefined;
}

export async function readInfo(
  client: OpenStackClient,
  stack: Stack,
  state: StackState,
  vimConnectionId: string,
  signal?: AbortSignal,
): Promise<InstantiatedVnfInfo> {
  const h = (resourceId: string, type: string): ResourceHandle => ({
    vimConnectionId,
    resourceId,
    vimLevelResourceType: type,
  });
  const resources = await client.heat.resources(stack, { nestedDepth: 3, signal });
  const top = resources.filter((r) => stackIdOf(r) === stack.id);
  const scopes = vnfcScopes(resources, stack.id, state);
  const nestedOf = (vnfcId: string) => scopes.get(vnfcId)?.resources ?? [];
  const serverResources = new Map(state.vnfcs.map((v) => [v.id, serverIn(scopes.get(v.id), v.vduId)]));
  const serverOf = (vnfcId: string) => serverResources.get(vnfcId);
  const present = state.vnfcs.filter((v) => serverOf(v.id));

  // Nova and Neutron, in parallel.
  const servers = new Map<string, Server | undefined>();
  const ports = new Map<string, Port | undefined>();
  const portIdsOf = (v: StackState['vnfcs'][number]) =>
    nestedOf(v.id)
      .filter(
        (r) =>
          r.resource_type === RESOURCE_TYPES.port &&
          r.physical_resource_id &&
          v.cps.includes(r.resource_name),
      )
      .map((r) => r.physical_resource_id);
  const portIds = [...new Set(present.flatMap(portIdsOf))];
  // Ports in one list call per PORTS_A_CALL (Neutron filters on several ids), not one call each.
  const portChunks = Array.from({ length: Math.ceil(portIds.length / PORTS_A_CALL) }, (_, i) =>
    portIds.slice(i * PORTS_A_CALL, (i + 1) * PORTS_A_CALL),
  );
  await Promise.all([
    ...present.map(async (v) => {
      const id = serverOf(v.id)?.physical_resource_id as string;
      servers.set(id, await client.nova.server(id, signal));
    }),
    ...portChunks.map(async (ids) => {
      for (const port of await client.neutron.ports({ id: ids }, signal)) ports.set(port.id, port);
    }),
  ]);

  const networks = new Map(
    state.virtualLinks.map((vl) => [vl, top.find((r) => r.resource_name === vl && r.physical_resource_id)]),
  );
  const linkPorts = new Map<string, { id: string; cpInstanceId: string }[]>();
  const extPorts = new Map<string, { id: string; cpInstanceId: string }[]>();
  const extCpInfo: VnfExtCpInfo[] = [];
  const storages: VirtualStorageResourceInfo[] = [];
  const vnfcResourceInfo: VnfcResourceInfo[] = [];
  const vnfcInfo: VnfcInfo[] = [];

  for (const vnfc of present) {
    const nested = nestedOf(vnfc.id);
    const member = scopes.get(vnfc.id)?.member;
    const serverId = serverOf(vnfc.id)?.physical_resource_id as string;
    const server = servers.get(serverId);
    const cps = vnfc.cps.map((cpdId) => {
      const id = vnfcCpInfoId(cpdId, vnfc.id);
      const resource = nested.find(
        (r) => r.resource_name === cpdId && r.resource_type === RESOURCE_TYPES.port,
      );
      const port = resource ? ports.get(resource.physical_resource_id) : undefined;
      if (!port) return { id, cpdId };
      const ext = extLinkOf(state, cpdId);
      if (ext) {
        extCpInfo.push({
          id: port.id,
          cpdId,
          ...(ext.cpConfigId ? { cpConfigId: ext.cpConfigId } : {}),
          cpProtocolInfo: protocolInfo(port),
          extLinkPortId: port.id,
          associatedVnfcCpId: id,
        });
        extPorts.set(ext.link.id, [
          ...(extPorts.get(ext.link.id) ?? []),
          { id: port.id, cpInstanceId: port.id },
        ]);
        return { id, cpdId, vnfExtCpId: port.id, cpProtocolInfo: protocolInfo(port) };
      }
      const net = port.network_id;
      linkPorts.set(net, [...(linkPorts.get(net) ?? []), { id: port.id, cpInstanceId: id }]);
      return { id, cpdId, vnfLinkPortId: port.id, cpProtocolInfo: protocolInfo(port) };
    });
    const storageIds: string[] = [];
    for (const storage of vnfc.storages) {
      const volume = nested.find(
        (r) => r.resource_name === storage && r.resource_type === RESOURCE_TYPES.volume,
      );
      if (!volume?.physical_resource_id) continue;
      const id = storageInfoId(storage, vnfc.id);
      storageIds.push(id);
      storages.push({
        id,
        virtualStorageDescId: storage,
        storageResource: h(volume.physical_resource_id, RESOURCE_TYPES.volume),
      });
    }
    const zone = server?.['OS-EXT-AZ:availability_zone'] ?? vnfc.zone;
    const image = server && typeof server.image === 'object' ? server.image.id : undefined;
    vnfcResourceInfo.push({
      id: vnfc.id,
      vduId: vnfc.vduId,
      ...(zone ? { zoneId: zone } : {}),
      computeResource: h(serverId, RESOURCE_TYPES.server),
      ...(storageIds.length ? { storageResourceIds: storageIds.sort() } : {}),
      vnfcCpInfo: cps,
      metadata: {
        ...(zone ? { zone } : {}),
        ...(server?.['OS-EXT-SRV-ATTR:host'] ? { host: server['OS-EXT-SRV-ATTR:host'] } : {}),
        flavor: server?.flavor?.original_name ?? vnfc.flavour,
        ...(image ? { image } : {}),
        ...(server ? { serverName: server.name } : {}),
        stackResource: scopes.get(vnfc.id)?.holder,
        // Heat's name of the scaling group member that is this VNFC.
        ...(member ? { groupMember: member.name } : {}),
      },
    });
    vnfcInfo.push({
      id: vnfcInfoId(vnfc.vduId, vnfc.id),
      vduId: vnfc.vduId,
      vnfcResourceInfoId: vnfc.id,
      vnfcState: server?.status === 'SHUTOFF' ? 'STOPPED' : 'STARTED',
    });
  }

  const vnfVirtualLinkResourceInfo: VnfVirtualLinkResourceInfo[] = [];
  for (const [vl, net] of networks) {
    if (!net) continue;
    vnfVirtualLinkResourceInfo.push({
      id: net.physical_resource_id,
      vnfVirtualLinkDescId: vl,
      networkResource: h(net.physical_resource_id, RESOURCE_TYPES.network),
      vnfLinkPorts: (linkPorts.get(net.physical_resource_id) ?? [])
        .map((p) => ({
          id: p.id,
          resourceHandle: h(p.id, RESOURCE_TYPES.port),
          cpInstanceId: p.cpInstanceId,
          cpInstanceType: 'VNFC_CP' as const,
        }))
        .sort(byId),
    });
  }
  const extVirtualLinkInfo: ExtVirtualLinkInfo[] = state.extVirtualLinks.map((e) => ({
    id: e.id,
    resourceHandle: {
      vimConnectionId: (e.vimConnectionId as string | undefined) ?? vimConnectionId,
      resourceId: e.resourceId,
      vimLevelResourceType: RESOURCE_TYPES.network,
    },
    extLinkPorts: (extPorts.get(e.id) ?? [])
      .map((p) => ({ id: p.id, resourceHandle: h(p.id, RESOURCE_TYPES.port), cpInstanceId: p.cpInstanceId }))
      .sort(byId),
    currentVnfExtCpData: (e.extCps as Record<string, unknown>[] | undefined) ?? [],
  }));

  const allStopped = vnfcInfo.length > 0 && vnfcInfo.every((v) => v.vnfcState === 'STOPPED');
  return {
    flavourId: state.flavourId,
    vnfState: allStopped ? 'STOPPED' : 'STARTED',
    scaleStatus: state.scaleStatus,
    maxScaleLevels: state.maxScaleLevels,
    extCpInfo: extCpInfo.sort(byId),
    extVirtualLinkInfo,
    vnfcResourceInfo,
    vnfVirtualLinkResourceInfo,
    virtualStorageResourceInfo: storages.sort(byId),
    vnfcInfo,
    ...(state.localizationLanguage ? { localizationLanguage: state.localizationLanguage } : {}),
    metadata: { stackId: stack.id, stackName: stack.stack_name },
  };
}

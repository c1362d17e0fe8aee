/**
 * What the request's external virtual links say about a connection point: the Neutron network
 * its port goes on, and its fixed addresses and subnets (SOL003 cpConfig → cpProtocolData →
 * ipOverEthernet.ipAddresses), in the `fixed_ips` form of OS::Neutron::Port.
 */
import type { ExtVirtualLinkData } from '../../../contract.ts';
import { isMapping } from './hot-yaml.ts';

export interface FixedIp {
  ip_address?: string;
  subnet?: string;
}

interface ExtCpData {
  cpdId?: unknown;
  cpConfig?: unknown;
}

function extCpOf(
  links: readonly ExtVirtualLinkData[],
  cpdId: string,
): { link: ExtVirtualLinkData; cp: ExtCpData } | undefined {
  for (const link of links) {
    const cps = Array.isArray(link.extCps) ? (link.extCps as ExtCpData[]) : [];
    const cp = cps.find((c) => isMapping(c) && c.cpdId === cpdId);
    if (cp) return { link, cp };
  }
  return undefined;
}

/** The network of the external VL carrying `cpdId`, if the links carry it. */
export function extNetworkOf(links: readonly ExtVirtualLinkData[], cpdId: string): string | undefined {
  return extCpOf(links, cpdId)?.link.resourceId;
}

/**
 * The CP's fixed IPs from its first cpConfig (Tacker reads one cpConfig per CP); undefined when
 * the links do not carry the CP. A dynamic address with a subnet keeps only the subnet.
 */
export function extFixedIpsOf(links: readonly ExtVirtualLinkData[], cpdId: string): FixedIp[] | undefined {
  const found = extCpOf(links, cpdId);
  if (!found) return undefined;
  const configs = Array.isArray(found.cp.cpConfig)
    ? found.cp.cpConfig
    : Object.values(isMapping(found.cp.cpConfig) ? found.cp.cpConfig : {});
  const config = configs.find(isMapping);
  const protocols = Array.isArray(config?.cpProtocolData) ? config.cpProtocolData : [];
  const out: FixedIp[] = [];
  for (const protocol of protocols) {
    const eth = isMapping(protocol) && isMapping(protocol.ipOverEthernet) ? protocol.ipOverEthernet : {};
    for (const address of Array.isArray(eth.ipAddresses) ? eth.ipAddresses : []) {
      if (!isMapping(address)) continue;
      const ip: FixedIp = {};
      const fixed = Array.isArray(address.fixedAddresses) ? address.fixedAddresses : [];
      if (typeof fixed[0] === 'string') ip.ip_address = fixed[0];
      if (typeof address.subnetId === 'string') ip.subnet = address.subnetId;
      if (ip.ip_address || ip.subnet) out.push(ip);
    }
  }
  return out;
}

/** The network of an externally managed internal VL (extManagedVirtualLinks), by VL name. */
export function managedNetworkOf(
  links: readonly Record<string, unknown>[],
  vlId: string | undefined,
): string | undefined {
  const found = links.find((l) => l.vnfVirtualLinkDescId === vlId);
  return typeof found?.resourceId === 'string' ? found.resourceId : undefined;
}

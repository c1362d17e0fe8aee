/**
 * Where a VNFC is reached over SSH: an address of one of its CPs as the instance records it
 * (vnfcResourceInfo[].vnfcCpInfo[].cpProtocolInfo, else the external CP's), never a guess. With
 * `cpdIds`, the first of those CPs that has an address; otherwise the first CP that has one.
 */
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../../sol/instance-model.ts';

type ProtocolInfo = NonNullable<VnfcResourceInfo['vnfcCpInfo']>[number]['cpProtocolInfo'];

const firstAddress = (info: ProtocolInfo): string | undefined =>
  info?.flatMap((p) => p.ipOverEthernet?.ipAddresses ?? []).flatMap((a) => a.addresses ?? [])[0];

export function vnfcAddress(
  vnfc: VnfcResourceInfo,
  info: InstantiatedVnfInfo | undefined,
  cpdIds?: readonly string[],
): { address: string; cpdId: string } | { problem: string } {
  const all = vnfc.vnfcCpInfo ?? [];
  const cps = cpdIds ? cpdIds.flatMap((id) => all.filter((cp) => cp.cpdId === id)) : all;
  for (const cp of cps) {
    const ext = cp.vnfExtCpId ? info?.extCpInfo.find((e) => e.id === cp.vnfExtCpId) : undefined;
    const address = firstAddress(cp.cpProtocolInfo) ?? firstAddress(ext?.cpProtocolInfo);
    if (address) return { address, cpdId: cp.cpdId };
  }
  return {
    problem: `VNFC ${vnfc.id} (${vnfc.vduId}) has no ${cpdIds ? `CP among ${cpdIds.join(', ')} with an ` : 'CP with an '}IP address to reach it over SSH`,
  };
}

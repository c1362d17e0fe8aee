/**
 * Which VNFC of an instance an alert is about, for VM-based VNFs and containers alike, from the
 * labels monitoring puts on it, tried in this order:
 *   vnfc_id, vnfc_info_id        a vnfcInfo or vnfcResourceInfo id
 *   server_id, server            the compute resource id (a Nova server, a pod)
 *   node, hostname, pod, server_name
 *                                the VNFC's hostname as kept in vnfcResourceInfo[].metadata
 *                                (hostname, serverName), or the compute resource id
 *   instance, address            Prometheus's target (host:port) or an address: an IP address
 *                                of one of the VNFC's connection points
 * The first label that names a VNFC decides; labels that name none are reported.
 */
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../sol/instance-model.ts';

export interface VnfcMatch {
  vnfc: VnfcResourceInfo;
  /** The vnfcInfo id of the VNFC (what SOL alarms and heals name). */
  vnfcInfoId: string;
  /** The label that found it. */
  label: string;
}

type Matcher = (vnfc: VnfcResourceInfo, value: string, info: InstantiatedVnfInfo) => boolean;

const infoIdOf = (info: InstantiatedVnfInfo, vnfc: VnfcResourceInfo) =>
  info.vnfcInfo?.find((v) => v.vnfcResourceInfoId === vnfc.id)?.id ?? vnfc.id;

const byId: Matcher = (vnfc, value, info) => vnfc.id === value || infoIdOf(info, vnfc) === value;
const byServer: Matcher = (vnfc, value) => vnfc.computeResource.resourceId === value;
const byHostname: Matcher = (vnfc, value) =>
  vnfc.metadata?.hostname === value ||
  vnfc.metadata?.serverName === value ||
  vnfc.computeResource.resourceId === value;

/** `10.0.0.5:9100`, `[fd00::5]:9100` or a bare address → the address. */
function hostOf(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1];
  const colons = value.split(':').length - 1;
  return colons === 1 ? value.slice(0, value.lastIndexOf(':')) : value;
}
const byAddress: Matcher = (vnfc, value) => {
  const host = hostOf(value);
  return (vnfc.vnfcCpInfo ?? []).some((cp) =>
    (cp.cpProtocolInfo ?? []).some((p) =>
      (p.ipOverEthernet?.ipAddresses ?? []).some((a) => (a.addresses ?? []).includes(host)),
    ),
  );
};

const MATCHERS: readonly [string, Matcher][] = [
  ['vnfc_id', byId],
  ['vnfc_info_id', byId],
  ['server_id', byServer],
  ['server', byServer],
  ['node', byHostname],
  ['hostname', byHostname],
  ['pod', byHostname],
  ['server_name', byHostname],
  ['instance', byAddress],
  ['address', byAddress],
];

export const VNFC_LABELS = MATCHERS.map(([label]) => label);

/** The VNFC the labels name, or the labels tried when none names one. */
export function matchVnfc(
  info: InstantiatedVnfInfo | undefined,
  labels: Record<string, string>,
): VnfcMatch | { tried: string[] } {
  const tried: string[] = [];
  for (const [label, matches] of MATCHERS) {
    const value = labels[label];
    if (value === undefined || value === '') continue;
    tried.push(`${label}=${value}`);
    const vnfc = info?.vnfcResourceInfo?.find((v) => matches(v, value, info));
    if (vnfc && info) return { vnfc, vnfcInfoId: infoIdOf(info, vnfc), label };
  }
  return { tried };
}

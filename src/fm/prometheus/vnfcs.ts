/**
 * What monitoring knows of each VNFC: its hostname and its metrics target (host:port), as the
 * VIM driver put them in vnfcResourceInfo[].metadata (hostname, metricsTarget), else derived —
 * the server's name (the guest's hostname) or its id, and the first IP address of its CPs with
 * fm.prometheus.targetPort. `withMonitoringMetadata` adds the derived ones to the metadata, so
 * the alert receiver can find a VNFC by the labels the files put on its alerts.
 */
import type { InstantiatedVnfInfo, VnfcResourceInfo } from '../../sol/instance-model.ts';
import type { ProvisionedVnfc } from './render.ts';

function firstAddress(vnfc: VnfcResourceInfo): string | undefined {
  for (const cp of vnfc.vnfcCpInfo ?? [])
    for (const p of cp.cpProtocolInfo ?? [])
      for (const a of p.ipOverEthernet?.ipAddresses ?? []) if (a.addresses?.[0]) return a.addresses[0];
  return undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

export function hostnameOf(vnfc: VnfcResourceInfo): string {
  return text(vnfc.metadata?.hostname) ?? text(vnfc.metadata?.serverName) ?? vnfc.computeResource.resourceId;
}

export function targetOf(vnfc: VnfcResourceInfo, port: number): string {
  const given = text(vnfc.metadata?.metricsTarget);
  if (given) return given;
  const address = firstAddress(vnfc) ?? hostnameOf(vnfc);
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

export function provisionedVnfcs(info: InstantiatedVnfInfo | undefined, port: number): ProvisionedVnfc[] {
  return (info?.vnfcResourceInfo ?? []).map((vnfc) => ({
    vnfcId: vnfc.id,
    vduId: vnfc.vduId,
    hostname: hostnameOf(vnfc),
    target: targetOf(vnfc, port),
  }));
}

/** The info with every VNFC's metadata.hostname and metadata.metricsTarget; undefined if all had them. */
export function withMonitoringMetadata(
  info: InstantiatedVnfInfo | undefined,
  port: number,
): InstantiatedVnfInfo | undefined {
  const vnfcs = info?.vnfcResourceInfo;
  if (!info || !vnfcs?.some((v) => !text(v.metadata?.hostname) || !text(v.metadata?.metricsTarget)))
    return undefined;
  return {
    ...info,
    vnfcResourceInfo: vnfcs.map((vnfc) => ({
      ...vnfc,
      metadata: { ...vnfc.metadata, hostname: hostnameOf(vnfc), metricsTarget: targetOf(vnfc, port) },
    })),
  };
}

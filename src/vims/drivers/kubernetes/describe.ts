/**
 * What a Kubernetes VIM offers, for registration checks and `bosun vim show`: its version (the
 * first call, with the credentials: a wrong token or certificate, an unreachable or untrusted
 * API server fails here with the API server's words), then its nodes grouped by zone label with
 * their allocatable CPU and memory (use is not counted: pods' requests are not summed). A VIM
 * user who may not list nodes (a namespace's tenant) registers with no zones and no hosts.
 */
import type { Config } from '../../../config/load.ts';
import { OutboundPolicy } from '../../../net/address-policy.ts';
import { InfraError, type VimConnection } from '../../contract.ts';
import type { VimDescription, VimHostDescription } from '../../description.ts';
import { withKubeClient } from './client/client.ts';
import type { Node } from './client/types.ts';
import { usable, ZONE_LABEL } from './zones.ts';

/** Kubernetes CPU quantity ("4", "3500m") in whole CPUs. */
function cpus(q: string | undefined): number {
  if (!q) return 0;
  return q.endsWith('m') ? Math.floor(Number(q.slice(0, -1)) / 1000) : Math.floor(Number(q)) || 0;
}

const UNITS: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
};

/** Kubernetes memory quantity ("8Gi", "8000000Ki") in MiB. */
function mebibytes(q: string | undefined): number {
  const m = /^([0-9.]+)([KMGT]i?|k)?$/.exec(q ?? '');
  if (!m) return 0;
  return Math.floor((Number(m[1]) * (m[2] ? (UNITS[m[2]] ?? 1) : 1)) / 2 ** 20);
}

const hostOf = (n: Node): VimHostDescription => ({
  name: n.metadata.name,
  up: usable(n),
  vcpus: cpus(n.status?.allocatable?.cpu),
  vcpusUsed: 0,
  ramMb: mebibytes(n.status?.allocatable?.memory),
  ramMbUsed: 0,
});

export async function describeKubernetesVim(vim: VimConnection, config: Config): Promise<VimDescription> {
  return withKubeClient(vim, OutboundPolicy.fromConfig(config), async (client) => {
    await client.version();
    let nodes: Node[];
    try {
      nodes = await client.nodes();
    } catch (error) {
      if (error instanceof InfraError && error.detail?.status === 403)
        return { zones: [], hostsVisible: false };
      throw error;
    }
    const zones = new Map<string, VimHostDescription[]>();
    for (const n of nodes) {
      const zone = n.metadata.labels?.[ZONE_LABEL];
      if (zone) zones.set(zone, [...(zones.get(zone) ?? []), hostOf(n)]);
    }
    return {
      zones: [...zones]
        .map(([name, hosts]) => ({ name, hosts: hosts.sort((a, b) => a.name.localeCompare(b.name)) }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  });
}

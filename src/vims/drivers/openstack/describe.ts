/**
 * What an OpenStack VIM offers, for registration checks and `bosun vim show`: its availability
 * zones with their compute hosts, whether each is up, and their vCPU and RAM capacity and use
 * (Nova's admin zone detail and hypervisor list). Authenticating is the first call, so wrong
 * credentials, an unknown project, an unreachable or untrusted endpoint fail here with
 * Keystone's own words (an InfraError).
 */
import type { OutboundPolicy } from '../../../net/address-policy.ts';
import type { VimConnection } from '../../contract.ts';
import type { VimDescription } from '../../description.ts';
import { openStackClient } from './client/client.ts';

/** Nova's zone of its control services, where nothing is placed. */
const INTERNAL_ZONE = 'internal';

export async function describeOpenStackVim(
  vim: VimConnection,
  policy: OutboundPolicy,
  signal?: AbortSignal,
): Promise<VimDescription> {
  const client = openStackClient(vim, policy);
  const [zones, hypervisors] = await Promise.all([
    client.nova.zonesDetail(signal),
    client.nova.hypervisors(signal),
  ]);
  const byHost = new Map(hypervisors.map((h) => [h.service?.host ?? h.hypervisor_hostname, h]));
  return {
    zones: zones
      .filter((z) => z.zoneName !== INTERNAL_ZONE)
      .map((z) => ({
        name: z.zoneName,
        hosts: Object.entries(z.hosts ?? {})
          .filter(([, services]) => services['nova-compute'])
          .map(([name, services]) => {
            const compute = services['nova-compute'];
            const h = byHost.get(name);
            return {
              name,
              up: compute.available && compute.active && (h?.state ?? 'up') === 'up',
              vcpus: h?.vcpus ?? 0,
              vcpusUsed: h?.vcpus_used ?? 0,
              ramMb: h?.memory_mb ?? 0,
              ramMbUsed: h?.memory_mb_used ?? 0,
            };
          })
          .sort((a, b) => a.name.localeCompare(b.name)),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

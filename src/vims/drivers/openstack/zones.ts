/**
 * The availability zones where servers can go: those with a nova-compute host up (Nova's admin
 * zone detail); for a user Nova's policy keeps out of it, the zones Nova says are available.
 */
import { InfraError, type VimConnection } from '../../contract.ts';
import { clientOf, type OpenStackDeps } from './deps.ts';

export async function zones(deps: OpenStackDeps, vim: VimConnection): Promise<string[]> {
  const client = clientOf(deps, vim);
  try {
    const detail = await client.nova.zonesDetail();
    return detail
      .filter((z) =>
        Object.values(z.hosts ?? {}).some((s) => s['nova-compute']?.available && s['nova-compute']?.active),
      )
      .map((z) => z.zoneName)
      .sort();
  } catch (error) {
    if (!(error instanceof InfraError) || error.detail?.status !== 403) throw error;
    const listed = await client.nova.zones();
    return listed
      .filter((z) => z.zoneState.available && z.zoneName !== 'internal')
      .map((z) => z.zoneName)
      .sort();
  }
}

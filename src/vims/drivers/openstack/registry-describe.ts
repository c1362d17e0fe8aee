/**
 * The OpenStack driver's answer to the VIM registry (registration check, `bosun vim show`):
 * describeOpenStackVim through the operator's outbound policy. A user without Nova's admin role
 * (the usual tenant user) may not see hosts: authenticating and listing the zones it may boot in
 * still proves the credentials, so its VIM registers with its zones and no hosts.
 */
import type { Config } from '../../../config/load.ts';
import { OutboundPolicy } from '../../../net/address-policy.ts';
import { InfraError, type VimConnection } from '../../contract.ts';
import type { VimDescription } from '../../description.ts';
import { openStackClient } from './client/client.ts';
import { describeOpenStackVim } from './describe.ts';

/** Nova's zone of its control services, where nothing is placed. */
const INTERNAL_ZONE = 'internal';

const forbiddenAtNova = (error: unknown) =>
  error instanceof InfraError && error.detail?.service === 'compute' && error.detail?.status === 403;

export async function describeForRegistry(vim: VimConnection, config: Config): Promise<VimDescription> {
  const policy = OutboundPolicy.fromConfig(config);
  try {
    return await describeOpenStackVim(vim, policy);
  } catch (error) {
    if (!forbiddenAtNova(error)) throw error;
    const zones = await openStackClient(vim, policy).nova.zones();
    return {
      zones: zones
        .filter((z) => z.zoneName !== INTERNAL_ZONE && z.zoneState.available)
        .map((z) => ({ name: z.zoneName, hosts: [] }))
        .sort((a, b) => a.name.localeCompare(b.name)),
      hostsVisible: false,
    };
  }
}

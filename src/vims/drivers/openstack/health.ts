/**
 * Health of an instance's VNFCs from Nova: each server's status (ACTIVE, SHUTOFF, ERROR with
 * Nova's fault message), MISSING when Nova no longer has it. Fault management raises alarms on it.
 */
import type { InstantiatedVnfInfo } from '../../../sol/instance-model.ts';
import type { VimConnection, VnfcHealth } from '../../contract.ts';
import { clientOf, type OpenStackDeps } from './deps.ts';

const STATES: Record<string, VnfcHealth['state']> = { ACTIVE: 'ACTIVE', SHUTOFF: 'SHUTOFF', ERROR: 'ERROR' };

export async function health(
  deps: OpenStackDeps,
  vim: VimConnection,
  info: InstantiatedVnfInfo,
): Promise<VnfcHealth[]> {
  const client = clientOf(deps, vim);
  return Promise.all(
    (info.vnfcResourceInfo ?? []).map(async (v): Promise<VnfcHealth> => {
      const server = await client.nova.server(v.computeResource.resourceId);
      const base = { vnfcResourceInfoId: v.id, computeResource: v.computeResource };
      if (!server)
        return { ...base, state: 'MISSING', reason: `Nova has no server ${v.computeResource.resourceId}` };
      const state = STATES[server.status] ?? 'ERROR';
      const host = server['OS-EXT-SRV-ATTR:host'] ?? undefined;
      const zoneId = server['OS-EXT-AZ:availability_zone'];
      return {
        ...base,
        state,
        ...(host ? { host } : {}),
        ...(zoneId ? { zoneId } : {}),
        ...(state === 'ACTIVE' || state === 'SHUTOFF'
          ? {}
          : { reason: server.fault?.message ?? `Nova reports the server ${server.status}` }),
      };
    }),
  );
}

/**
 * Per-VNFC health as the simulated VIM sees it: the server's status, ERROR when it crashed or
 * its host is down (with the reason), MISSING when the server is gone.
 */
import type { Executor } from '../../../store/db/transaction.ts';
import type { InstantiatedVnfInfo, VnfcHealth } from '../contract.ts';

export async function vnfcHealth(db: Executor, info: InstantiatedVnfInfo): Promise<VnfcHealth[]> {
  const vnfcs = info.vnfcResourceInfo ?? [];
  const ids = vnfcs.map((v) => v.computeResource.resourceId);
  const servers = ids.length
    ? await db.selectFrom('sim_servers').selectAll().where('id', 'in', ids).execute()
    : [];
  const hostNames = [...new Set(servers.map((s) => s.host))];
  const hosts = hostNames.length
    ? await db.selectFrom('sim_hosts').select(['name', 'state']).where('name', 'in', hostNames).execute()
    : [];
  const down = new Set(hosts.filter((h) => h.state === 'down').map((h) => h.name));
  const byId = new Map(servers.map((s) => [s.id, s]));
  return vnfcs.map((v) => {
    const server = byId.get(v.computeResource.resourceId);
    const base = { vnfcResourceInfoId: v.id, computeResource: v.computeResource };
    if (!server)
      return { ...base, state: 'MISSING', reason: `Server ${v.computeResource.resourceId} does not exist.` };
    const where = { host: server.host, zoneId: server.zone };
    if (down.has(server.host)) {
      return {
        ...base,
        ...where,
        state: 'ERROR',
        reason: server.fault ?? `host-down: compute host ${server.host} is down`,
      };
    }
    if (server.status === 'ERROR')
      return { ...base, ...where, state: 'ERROR', reason: server.fault ?? 'error' };
    return { ...base, ...where, state: server.status === 'SHUTOFF' ? 'SHUTOFF' : 'ACTIVE' };
  });
}

/**
 * Health as the simulated VIM sees it — per VNFC of an instance (the driver's `health`) and per
 * server (the admin API): the server's status, ERROR when it crashed or its host is down (with
 * the reason), MISSING when the server is gone.
 */

import type { InstantiatedVnfInfo } from '../../../sol/instance-model.ts';
import type { Executor } from '../../../store/db/transaction.ts';
import type { VnfcHealth } from '../../contract.ts';

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

export interface ServerHealth {
  serverId: string;
  /** The server's name: its hostname, as monitoring inside the guest reports it. */
  name: string;
  instanceId?: string;
  vnfcResourceInfoId: string;
  state: 'ACTIVE' | 'SHUTOFF' | 'ERROR';
  host: string;
  zoneId: string;
  reason?: string;
}

/** Health of every server (of one instance when given). */
export async function serverHealth(db: Executor, instanceId?: string): Promise<ServerHealth[]> {
  let q = db
    .selectFrom('sim_servers')
    .innerJoin('sim_hosts', 'sim_hosts.name', 'sim_servers.host')
    .select([
      'sim_servers.id',
      'sim_servers.name',
      'sim_servers.instance_id',
      'sim_servers.vnfc_id',
      'sim_servers.status',
      'sim_servers.fault',
      'sim_servers.host',
      'sim_servers.zone',
      'sim_hosts.state as host_state',
    ])
    .orderBy('sim_servers.created_at')
    .orderBy('sim_servers.id');
  if (instanceId) q = q.where('sim_servers.instance_id', '=', instanceId);
  return (await q.execute()).map((s) => {
    const error = s.status === 'ERROR' || s.host_state === 'down';
    return {
      serverId: s.id,
      name: s.name,
      ...(s.instance_id ? { instanceId: s.instance_id } : {}),
      vnfcResourceInfoId: s.vnfc_id,
      state: error ? 'ERROR' : s.status === 'SHUTOFF' ? 'SHUTOFF' : 'ACTIVE',
      host: s.host,
      zoneId: s.zone,
      ...(error ? { reason: s.fault ?? `host-down: compute host ${s.host} is down` } : {}),
    };
  });
}

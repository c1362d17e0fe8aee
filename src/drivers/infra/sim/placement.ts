/**
 * Where a new (or resized) server goes, like Nova's scheduler: a host that is up, in the wanted
 * availability zone (any zone that is not exhausted when none is wanted), with room for the
 * flavor; the host with the most free RAM wins (Nova's default spreading). Runs inside the
 * call's transaction: on PostgreSQL the zone's hosts are locked, on SQLite the transaction is
 * already exclusive, so two processes never overcommit a host.
 */
import { sql } from 'kysely';
import { InfraError } from '../contract.ts';
import type { ComputeNeeds } from './flavors.ts';
import type { Journal } from './journal.ts';

export const NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.';

export interface Placement {
  zone: string;
  host: string;
}

export interface HostUsage {
  vcpus: number;
  ramMb: number;
  diskGb: number;
  servers: number;
}

/** Resources used on each host by its servers (all but `except`, a server being resized). */
export async function hostUsage(
  journal: Journal,
  hosts: string[],
  except?: string,
): Promise<Map<string, HostUsage>> {
  const usage = new Map<string, HostUsage>();
  if (hosts.length === 0) return usage;
  let q = journal.trx
    .selectFrom('sim_servers')
    .select([
      'host',
      sql<string>`sum(vcpus)`.as('vcpus'),
      sql<string>`sum(ram_mb)`.as('ram_mb'),
      sql<string>`sum(disk_gb)`.as('disk_gb'),
      sql<string>`count(*)`.as('servers'),
    ])
    .where('host', 'in', hosts)
    .groupBy('host');
  if (except) q = q.where('id', '<>', except);
  for (const r of await q.execute()) {
    usage.set(r.host, {
      vcpus: Number(r.vcpus),
      ramMb: Number(r.ram_mb),
      diskGb: Number(r.disk_gb),
      servers: Number(r.servers),
    });
  }
  return usage;
}

export async function placeServer(
  journal: Journal,
  need: ComputeNeeds,
  zone: string | undefined,
  detail: Record<string, unknown>,
  except?: string,
): Promise<Placement> {
  const noHost = () =>
    new InfraError('NO_VALID_HOST', NO_VALID_HOST, { ...detail, ...(zone ? { zone } : {}) });
  const trx = journal.trx;
  if (zone) {
    const z = await trx.selectFrom('sim_zones').selectAll().where('name', '=', zone).executeTakeFirst();
    if (!z) {
      throw new InfraError('INVALID_REQUEST', `The requested availability zone is not available: ${zone}.`, {
        ...detail,
        zone,
      });
    }
    if (z.exhausted) throw noHost();
  }
  let hosts = trx
    .selectFrom('sim_hosts')
    .innerJoin('sim_zones', 'sim_zones.name', 'sim_hosts.zone')
    .select(['sim_hosts.name', 'sim_hosts.zone', 'sim_hosts.vcpus', 'sim_hosts.ram_mb', 'sim_hosts.disk_gb'])
    .where('sim_hosts.state', '=', 'up')
    .where('sim_zones.exhausted', '=', false)
    .orderBy('sim_hosts.name');
  if (zone) hosts = hosts.where('sim_hosts.zone', '=', zone);
  if (journal.dialect === 'postgres') hosts = hosts.forUpdate('sim_hosts');
  const candidates = await hosts.execute();
  const usage = await hostUsage(
    journal,
    candidates.map((h) => h.name),
    except,
  );
  let best: { zone: string; host: string; freeRam: number } | undefined;
  for (const h of candidates) {
    const used = usage.get(h.name) ?? { vcpus: 0, ramMb: 0, diskGb: 0, servers: 0 };
    const free = {
      vcpus: h.vcpus - used.vcpus,
      ramMb: h.ram_mb - used.ramMb,
      diskGb: h.disk_gb - used.diskGb,
    };
    if (free.vcpus < need.vcpus || free.ramMb < need.ramMb || free.diskGb < need.diskGb) continue;
    if (!best || free.ramMb > best.freeRam) best = { zone: h.zone, host: h.name, freeRam: free.ramMb };
  }
  if (!best) throw noHost();
  return { zone: best.zone, host: best.host };
}

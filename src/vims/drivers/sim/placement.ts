/**
 * Where a new (or resized) server goes, like Nova's scheduler: a host that is up, in the wanted
 * availability zone (any zone that is not exhausted when none is wanted), with room for the
 * flavor, and allowed by the server's groups (not a host of an anti-affinity peer, a host of an
 * affinity peer when it has one; soft policies only rank); the host with the most free RAM wins
 * (Nova's default spreading).
 *
 * It runs inside the server call's transaction. On PostgreSQL the capacity claim locks only the
 * chosen host's row (`FOR UPDATE SKIP LOCKED`, then its use is read again): every server placed
 * on a host is inserted under that lock, so two processes never overcommit a host, while
 * placements on other hosts go on in parallel — a host another call is claiming is skipped, and
 * one is waited for only when every candidate is being claimed, holding no other host then (so
 * two placements never wait on each other). A candidate that turns out full once locked is
 * released at once (savepoint). On SQLite the transaction is already exclusive.
 */
import { sql } from 'kysely';
import { InfraError } from '../../contract.ts';
import type { ComputeNeeds } from './flavors.ts';
import type { Journal } from './journal.ts';

export const NO_VALID_HOST = 'No valid host was found. There are not enough hosts available.';

export interface Placement {
  zone: string;
  host: string;
}

/** What a server's groups say about hosts: the hosts of its peers, by policy. */
export interface GroupHosts {
  /** Hosts of strict anti-affinity peers: never. */
  avoid: ReadonlySet<string>;
  /** Hosts of strict affinity peers: only these, when there are any. */
  join: ReadonlySet<string>;
  /** Hosts of soft anti-affinity peers: last. */
  softAvoid: ReadonlySet<string>;
  /** Hosts of soft affinity peers: first. */
  softJoin: ReadonlySet<string>;
}

const NO_GROUP: GroupHosts = { avoid: new Set(), join: new Set(), softAvoid: new Set(), softJoin: new Set() };

/** Whether the groups allow `host`. */
const allowed = (groups: GroupHosts, host: string) =>
  !groups.avoid.has(host) && (groups.join.size === 0 || groups.join.has(host));

/** Soft preference of the groups for `host`: lower is better. */
const preference = (groups: GroupHosts, host: string) =>
  (groups.softAvoid.has(host) ? 1 : 0) - (groups.softJoin.has(host) ? 1 : 0);

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

interface HostRow {
  name: string;
  zone: string;
  vcpus: number;
  ram_mb: number;
  disk_gb: number;
}

const NO_USE: HostUsage = { vcpus: 0, ramMb: 0, diskGb: 0, servers: 0 };

/** Free RAM on `host` when `need` fits there, else undefined. */
function room(host: HostRow, used: HostUsage, need: ComputeNeeds): number | undefined {
  const free = {
    vcpus: host.vcpus - used.vcpus,
    ramMb: host.ram_mb - used.ramMb,
    diskGb: host.disk_gb - used.diskGb,
  };
  if (free.vcpus < need.vcpus || free.ramMb < need.ramMb || free.diskGb < need.diskGb) return undefined;
  return free.ramMb;
}

/**
 * A round that ends waiting for a host gets it or finds it full (or down) by what is committed,
 * so the next round ranks without it: rounds end when hosts run out. The bound only guards
 * against hosts freed and filled again forever.
 */
const CLAIM_ROUNDS = 100;

/**
 * PostgreSQL: locks `host`'s row (skipping it when another call holds it, unless `wait`) and
 * checks, with its use read under the lock, that `need` still fits. A host that cannot be had is
 * released before the next is tried, so the transaction holds at most the host it places on.
 */
async function claim(
  journal: Journal,
  host: string,
  need: ComputeNeeds,
  except: string | undefined,
  wait: boolean,
): Promise<boolean> {
  const trx = journal.trx;
  await sql`savepoint bosun_claim`.execute(trx);
  const locking = trx
    .selectFrom('sim_hosts')
    .select(['name', 'zone', 'vcpus', 'ram_mb', 'disk_gb'])
    .where('name', '=', host)
    .where('state', '=', 'up')
    .forUpdate();
  const row = await (wait ? locking : locking.skipLocked()).executeTakeFirst();
  const used = row ? ((await hostUsage(journal, [host], except)).get(host) ?? NO_USE) : NO_USE;
  if (row && room(row, used, need) !== undefined) {
    await sql`release savepoint bosun_claim`.execute(trx);
    return true;
  }
  await sql`rollback to savepoint bosun_claim`.execute(trx);
  return false;
}

/**
 * Whether `need` fits on `host` (a server resized in place; `except` is that server). On
 * PostgreSQL the host stays locked when it does, and is released when it does not.
 */
export async function fitsOn(
  journal: Journal,
  host: string,
  need: ComputeNeeds,
  except: string,
): Promise<boolean> {
  if (journal.dialect === 'postgres') return claim(journal, host, need, except, true);
  const row = await journal.trx
    .selectFrom('sim_hosts')
    .select(['name', 'zone', 'vcpus', 'ram_mb', 'disk_gb'])
    .where('name', '=', host)
    .executeTakeFirst();
  return (
    row !== undefined &&
    room(row, (await hostUsage(journal, [host], except)).get(host) ?? NO_USE, need) !== undefined
  );
}

export async function placeServer(
  journal: Journal,
  need: ComputeNeeds,
  zone: string | undefined,
  detail: Record<string, unknown>,
  except?: string,
  groups: GroupHosts = NO_GROUP,
): Promise<Placement> {
  const noHost = () =>
    new InfraError('NO_VALID_HOST', NO_VALID_HOST, {
      ...detail,
      ...(zone ? { zone } : {}),
      reason: NO_VALID_HOST,
    });
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
  /** Hosts where `need` fits by what is committed now, most free RAM first. */
  const ranked = async (): Promise<HostRow[]> => {
    let hosts = trx
      .selectFrom('sim_hosts')
      .innerJoin('sim_zones', 'sim_zones.name', 'sim_hosts.zone')
      .select([
        'sim_hosts.name',
        'sim_hosts.zone',
        'sim_hosts.vcpus',
        'sim_hosts.ram_mb',
        'sim_hosts.disk_gb',
      ])
      .where('sim_hosts.state', '=', 'up')
      .where('sim_zones.exhausted', '=', false)
      .orderBy('sim_hosts.name');
    if (zone) hosts = hosts.where('sim_hosts.zone', '=', zone);
    const candidates = await hosts.execute();
    const usage = await hostUsage(
      journal,
      candidates.map((h) => h.name),
      except,
    );
    return candidates
      .filter((h) => allowed(groups, h.name))
      .map((h) => ({ h, free: room(h, usage.get(h.name) ?? NO_USE, need) }))
      .filter((c): c is { h: HostRow; free: number } => c.free !== undefined)
      .sort((a, b) => preference(groups, a.h.name) - preference(groups, b.h.name) || b.free - a.free)
      .map((c) => c.h);
  };
  if (journal.dialect !== 'postgres') {
    const [best] = await ranked();
    if (!best) throw noHost();
    return { zone: best.zone, host: best.name };
  }
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const hosts = await ranked();
    if (hosts.length === 0) break;
    for (const h of hosts)
      if (await claim(journal, h.name, need, except, false)) return { zone: h.zone, host: h.name };
    // Every candidate is being claimed by another call: wait for the best one (holding no other).
    if (await claim(journal, hosts[0].name, need, except, true))
      return { zone: hosts[0].zone, host: hosts[0].name };
  }
  throw noHost();
}

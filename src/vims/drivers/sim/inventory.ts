/** What the simulated cloud holds, for the admin API and `bosun sim`: zones, hosts, servers, flavors, images. */
import type { Database } from '../../../store/db/database.ts';
import type { SimServersTable } from '../../../store/db/tables.ts';
import { inTransaction } from '../../../store/db/transaction.ts';
import { Journal } from './journal.ts';
import { hostUsage } from './placement.ts';

export interface Capacity {
  vcpus: number;
  ramMb: number;
  diskGb: number;
}

export interface SimHost {
  name: string;
  zone: string;
  state: 'up' | 'down';
  capacity: Capacity;
  used: Capacity;
  servers: number;
}

export interface SimZone {
  name: string;
  exhausted: boolean;
  hosts: number;
  hostsUp: number;
  capacity: Capacity;
  used: Capacity;
}

export interface SimServer {
  id: string;
  name: string;
  status: string;
  power: 'on' | 'off';
  fault?: string;
  zone: string;
  host: string;
  flavor: string;
  image?: string;
  instanceId?: string;
  vnfcResourceInfoId: string;
  vduId: string;
  opOccId?: string;
  createdAt: string;
}

export async function listHosts(db: Database): Promise<SimHost[]> {
  return inTransaction(db, async (trx) => {
    const rows = await trx.selectFrom('sim_hosts').selectAll().orderBy('zone').orderBy('name').execute();
    const usage = await hostUsage(
      new Journal(trx, db.dialect, '', undefined),
      rows.map((r) => r.name),
    );
    return rows.map((r) => {
      const u = usage.get(r.name);
      return {
        name: r.name,
        zone: r.zone,
        state: r.state as SimHost['state'],
        capacity: { vcpus: r.vcpus, ramMb: r.ram_mb, diskGb: r.disk_gb },
        used: { vcpus: u?.vcpus ?? 0, ramMb: u?.ramMb ?? 0, diskGb: u?.diskGb ?? 0 },
        servers: u?.servers ?? 0,
      };
    });
  });
}

export async function listZones(db: Database): Promise<SimZone[]> {
  const zones = await db.kysely.selectFrom('sim_zones').selectAll().orderBy('name').execute();
  const hosts = await listHosts(db);
  const sum = (caps: Capacity[]) =>
    caps.reduce(
      (a, c) => ({ vcpus: a.vcpus + c.vcpus, ramMb: a.ramMb + c.ramMb, diskGb: a.diskGb + c.diskGb }),
      {
        vcpus: 0,
        ramMb: 0,
        diskGb: 0,
      },
    );
  return zones.map((z) => {
    const mine = hosts.filter((h) => h.zone === z.name);
    return {
      name: z.name,
      exhausted: Boolean(z.exhausted),
      hosts: mine.length,
      hostsUp: mine.filter((h) => h.state === 'up').length,
      capacity: sum(mine.map((h) => h.capacity)),
      used: sum(mine.map((h) => h.used)),
    };
  });
}

export const serverView = (s: SimServersTable): SimServer => ({
  id: s.id,
  name: s.name,
  status: s.status,
  power: s.power as SimServer['power'],
  ...(s.fault ? { fault: s.fault } : {}),
  zone: s.zone,
  host: s.host,
  flavor: s.flavor_id,
  ...(s.image_id ? { image: s.image_id } : {}),
  ...(s.instance_id ? { instanceId: s.instance_id } : {}),
  vnfcResourceInfoId: s.vnfc_id,
  vduId: s.vdu_id,
  ...(s.op_occ_id ? { opOccId: s.op_occ_id } : {}),
  createdAt: s.created_at,
});

export async function listServers(
  db: Database,
  filter: { instanceId?: string; host?: string; zone?: string } = {},
): Promise<SimServer[]> {
  let q = db.kysely.selectFrom('sim_servers').selectAll().orderBy('created_at').orderBy('id');
  if (filter.instanceId) q = q.where('instance_id', '=', filter.instanceId);
  if (filter.host) q = q.where('host', '=', filter.host);
  if (filter.zone) q = q.where('zone', '=', filter.zone);
  return (await q.execute()).map(serverView);
}

export async function getServer(db: Database, id: string): Promise<SimServer | undefined> {
  const row = await db.kysely.selectFrom('sim_servers').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? serverView(row) : undefined;
}

export async function listFlavors(db: Database) {
  const rows = await db.kysely
    .selectFrom('sim_flavors')
    .selectAll()
    .orderBy('vcpus')
    .orderBy('ram_mb')
    .orderBy('name')
    .execute();
  return rows.map((f) => ({ id: f.id, name: f.name, vcpus: f.vcpus, ramMb: f.ram_mb, diskGb: f.disk_gb }));
}

export async function listImages(db: Database) {
  const rows = await db.kysely
    .selectFrom('sim_images')
    .selectAll()
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((i) => ({
    id: i.id,
    name: i.name,
    ...(i.instance_id ? { instanceId: i.instance_id } : {}),
    size: Number(i.size),
    diskFormat: i.disk_format,
    containerFormat: i.container_format,
    ...(i.checksum ? { checksum: i.checksum } : {}),
    createdAt: i.created_at,
  }));
}

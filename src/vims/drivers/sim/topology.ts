/**
 * The simulated cloud's fixed parts — availability zones, hosts and flavors — seeded from the
 * `sim` configuration. Seeding only adds what is missing (several processes may start at once),
 * so zones and hosts changed at run time (down, exhausted) keep their state across restarts.
 */
import type { Database } from '../../../store/db/database.ts';
import type { SimConfig } from './config.ts';

export const hostName = (zone: string, n: number) => `${zone}-host-${n}`;

const seeded = new WeakMap<Database, Promise<void>>();

async function seed(db: Database, sim: SimConfig): Promise<void> {
  const now = new Date().toISOString();
  const zones = sim.zones.map((z) => ({ name: z.name, exhausted: false, created_at: now }));
  const hosts = sim.zones.flatMap((z) =>
    Array.from({ length: z.hosts }, (_, i) => ({
      name: hostName(z.name, i + 1),
      zone: z.name,
      vcpus: z.vcpus,
      ram_mb: z.ramMb,
      disk_gb: z.diskGb,
      state: 'up',
      created_at: now,
    })),
  );
  const flavors = sim.flavors.map((f) => ({
    id: f.name,
    name: f.name,
    vcpus: f.vcpus,
    ram_mb: f.ramMb,
    disk_gb: f.diskGb,
  }));
  const k = db.kysely;
  if (zones.length) {
    await k
      .insertInto('sim_zones')
      .values(zones)
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
  if (hosts.length) {
    await k
      .insertInto('sim_hosts')
      .values(hosts)
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
  for (const flavor of flavors) {
    await k
      .insertInto('sim_flavors')
      .values(flavor)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Seeds once per process and database. */
export function ensureTopology(db: Database, sim: SimConfig): Promise<void> {
  let done = seeded.get(db);
  if (!done) {
    done = seed(db, sim);
    done.catch(() => seeded.delete(db));
    seeded.set(db, done);
  }
  return done;
}

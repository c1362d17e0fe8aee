/**
 * The OpenStack driver on mini-openstack: instantiate and terminate of a 4-VDU VNF (one server
 * each, five ports each on three internal VLs and an external network), with the time split
 * into Bosun's own work and the time it waited on Keystone, Heat (calls and waiting for the
 * stack), Nova, Neutron and Glance. Bosun's share is the duration less the time with at least
 * one OpenStack call or stack wait in flight (target < 5 %). The per-service times are sums over
 * calls, which overlap when Bosun reads servers and ports in parallel.
 * BOSUN_BENCH_OPENSTACK_ROUNDS (default 3).
 */
import { randomUUID } from 'node:crypto';
import type { InstantiatedVnfInfo } from '../src/sol/instance-model.ts';
import { openDatabase } from '../src/store/db/database.ts';
import { migrate } from '../src/store/db/migrate.ts';
import { openStackClient } from '../src/vims/drivers/openstack/client/client.ts';
import { SERVICE_NAMES, type ServiceType } from '../src/vims/drivers/openstack/client/errors.ts';
import { type TakenTimes, takeServiceTimes } from '../src/vims/drivers/openstack/client/timings.ts';
import { createOpenStackDriver } from '../src/vims/drivers/openstack/driver.ts';
import type { Flavour, Vnfd } from '../src/vnfd/model/vnfd.ts';
import { freshDatabaseUrl } from '../test/support/databases.ts';
import { miniOpenStack } from '../test/support/mini-openstack.ts';
import { context, grantFor, instantiatePlan, sampleVnfd } from '../test/vims/plans.ts';
import { printRows, type Row } from './support/report.ts';

const rounds = Number(process.env.BOSUN_BENCH_OPENSTACK_ROUNDS ?? '3');

/** functional6's two VDUs (five CPs each) and two copies of them: four VDUs. */
async function fourVdus(): Promise<Vnfd> {
  const base = await sampleVnfd('functional6.zip');
  const flavour = structuredClone(base.flavours[0]) as Flavour;
  for (const [from, to] of [
    ['VDU1', 'VDU3'],
    ['VDU2', 'VDU4'],
  ]) {
    const vdu = flavour.vdus.find((v) => v.id === from);
    if (!vdu) throw new Error(`functional6 has no ${from}`);
    flavour.vdus.push({ ...vdu, id: to, name: to });
    for (const cp of flavour.vduCps.filter((c) => c.vdu === from)) {
      flavour.vduCps.push({ ...cp, id: cp.id.replace(from, to), vdu: to });
    }
  }
  return { ...base, flavours: [flavour] };
}

const cloud = await miniOpenStack();
const client = openStackClient(cloud.admin, cloud.policy);
const db = openDatabase({ url: await freshDatabaseUrl('sqlite'), poolSize: 2 });
await migrate(db);
const driver = createOpenStackDriver({ db, policy: cloud.policy });
const vnfd = await fourVdus();
const [image] = await client.glance.images({ name: 'fake-image' });
const [network] = await client.neutron.networks({ name: 'shared-net' });
const SERVICES: ServiceType[] = ['identity', 'orchestration', 'compute', 'network', 'image'];

interface Measured {
  ms: number;
  times: TakenTimes;
}

async function measure(work: () => Promise<unknown>): Promise<Measured> {
  takeServiceTimes();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  return { ms, times: takeServiceTimes() };
}

const results: { instantiate: Measured; terminate: Measured }[] = [];
const failures: string[] = [];
try {
  for (let round = 0; round < rounds; round++) {
    const plan = instantiatePlan(vnfd);
    plan.extVirtualLinks = plan.extVirtualLinks.map((e) => ({ ...e, resourceId: network.id }));
    const vdus = vnfd.flavours[0].vdus.map((v) => v.id);
    const grant = {
      ...grantFor(
        plan.vnfcs.map((v) => v.id),
        'az1',
      ),
      softwareImages: Object.fromEntries(vdus.map((v) => [v, image.id])),
      computeFlavours: Object.fromEntries(vdus.map((v) => [v, 'm1.tiny'])),
    };
    const instanceId = randomUUID();
    const ctx = context(cloud.admin, vnfd, { instanceId, grant });
    let info: InstantiatedVnfInfo | undefined;
    try {
      const instantiate = await measure(async () => {
        info = (await driver.instantiate(ctx, plan)).instantiatedVnfInfo;
      });
      if (info?.vnfcResourceInfo?.length !== 4) throw new Error('the VNF does not have its four servers');
      const terminate = await measure(() =>
        driver.terminate({ ...ctx, opOccId: randomUUID(), current: info }, { terminationType: 'FORCEFUL' }),
      );
      results.push({ instantiate, terminate });
      process.stderr.write(
        `round ${round + 1}: ${(instantiate.ms / 1000).toFixed(1)} s + ${(terminate.ms / 1000).toFixed(1)} s\n`,
      );
    } catch (error) {
      // The shared cloud fails now and then under load (RPC timeouts): the round is not counted.
      failures.push(`round ${round + 1}: ${(error as Error).message}`);
      await driver.terminate({ ...ctx, opOccId: randomUUID() }, { terminationType: 'FORCEFUL' });
    }
  }
} finally {
  await db.close();
}

const rows: Row[] = [];
for (const op of ['instantiate', 'terminate'] as const) {
  const total = results.reduce((n, r) => n + r[op].ms, 0);
  const waiting = results.reduce((n, r) => n + r[op].times.waitingMs, 0);
  const own = total - waiting;
  rows.push([`${op}: duration per VNF`, `${(total / results.length / 1000).toFixed(2)} s`, '']);
  rows.push([
    `${op}: Bosun's own work`,
    `${((own / total) * 100).toFixed(2)} % (${(own / results.length).toFixed(0)} ms)`,
    '< 5 %',
  ]);
  for (const service of SERVICES) {
    const sum = results.reduce((n, r) => n + r[op].times.services[service].ms, 0);
    const calls = results.reduce((n, r) => n + r[op].times.services[service].calls, 0);
    if (calls === 0 && sum === 0) continue;
    rows.push([
      `${op}: ${SERVICE_NAMES[service]}`,
      `${(sum / results.length / 1000).toFixed(2)} s, ${(calls / results.length).toFixed(0)} calls`,
      '',
    ]);
  }
}
for (const failure of failures) rows.push(['not counted', failure.slice(0, 200), '']);
printRows(`OpenStack driver on mini-openstack (4-VDU VNF, ${results.length} rounds)`, rows);

/**
 * The simulated VIM as a Prometheus target, on SQLite and PostgreSQL: GET /bosun/v1/sim/metrics
 * has one series per server (1 running, 0 crashed or on a host down) and per host, and a real
 * Prometheus scraping it sees an injected crash and a host going down.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../src/sol/instance-model.ts';
import { SIM_VIM_TYPE } from '../../src/vims/drivers/sim/config.ts';
import { createSimDriver } from '../../src/vims/drivers/sim/driver.ts';
import { DIALECTS } from '../support/databases.ts';
import { http } from '../support/http.ts';
import { monitoring } from '../support/prometheus.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { context, grantFor, instantiatePlan, MAIN_SAMPLE, sampleVnfd } from '../vims/plans.ts';

const SIM = '/bosun/v1/sim';
const VIM = { id: 'default', vimType: SIM_VIM_TYPE };

async function instantiate(server: TestServer): Promise<{ instanceId: string; info: InstantiatedVnfInfo }> {
  const vnfd = await sampleVnfd(MAIN_SAMPLE);
  const plan = instantiatePlan(vnfd);
  const instanceId = randomUUID();
  const driver = createSimDriver({ db: server.context.db, sim: server.config.sim });
  const ctx = context(VIM, vnfd, {
    instanceId,
    grant: grantFor(
      plan.vnfcs.map((v) => v.id),
      'zone-a',
    ),
  });
  const result = await driver.instantiate(ctx, plan);
  return { instanceId, info: result.instantiatedVnfInfo as InstantiatedVnfInfo };
}

/** The value of the one series of `name` whose labels include `labels`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
      return Number(line.split(' ').at(-1));
  }
  return undefined;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) assert.fail(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

for (const dialect of DIALECTS) {
  describe(`simulated VIM metrics on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, { config: { sim: { operationDelayMs: 0 } } });
    });
    after(() => server.close());

    test('one series per server and host; a crash and a host down turn theirs to 0', async () => {
      const { instanceId, info } = await instantiate(server);
      const vnfcs = info.vnfcResourceInfo ?? [];
      const [first, second] = vnfcs;
      const serverId = first.computeResource.resourceId;
      const metrics = async () => (await http<string>(server.url, 'GET', `${SIM}/metrics`)).body;
      const before = await metrics();
      for (const v of vnfcs) {
        assert.equal(
          sample(before, 'bosun_sim_server_up', {
            server_id: v.computeResource.resourceId,
            vnf_instance_id: instanceId,
            vnfc_id: v.id,
          }),
          1,
        );
      }
      assert.equal(sample(before, 'bosun_sim_host_up', { host: 'zone-a-host-1', zone: 'zone-a' }), 1);

      await http(server.url, 'POST', `${SIM}/servers/${serverId}/crash`, { body: { reason: 'oops' } });
      const crashed = await metrics();
      assert.equal(sample(crashed, 'bosun_sim_server_up', { server_id: serverId }), 0);
      const other = second.computeResource.resourceId;
      assert.equal(sample(crashed, 'bosun_sim_server_up', { server_id: other }), 1);

      const host = (await http<{ host: string }>(server.url, 'GET', `${SIM}/servers/${other}`)).body.host;
      await http(server.url, 'POST', `${SIM}/hosts/${host}/down`);
      const down = await metrics();
      assert.equal(sample(down, 'bosun_sim_host_up', { host }), 0);
      assert.equal(sample(down, 'bosun_sim_server_up', { server_id: other }), 0);
      await http(server.url, 'POST', `${SIM}/hosts/${host}/up`);
      assert.equal(sample(await metrics(), 'bosun_sim_server_up', { server_id: other }), 1);
    });

    test('a real Prometheus scrapes it and sees the crashed server', async () => {
      const monitor = await monitoring();
      const { instanceId, info } = await instantiate(server);
      const serverId = info.vnfcResourceInfo?.[0].computeResource.resourceId as string;
      const target = new URL(server.url).host;
      await monitor.configurePrometheus({
        scrapeConfigs: `  - job_name: sim\n    metrics_path: ${SIM}/metrics\n    static_configs: [{ targets: ['${target}'] }]\n`,
        rules: 'groups: []\n',
      });
      await http(server.url, 'POST', `${SIM}/servers/${serverId}/crash`, { body: {} });
      const query = encodeURIComponent(`bosun_sim_server_up{vnf_instance_id="${instanceId}"} == 0`);
      const down = await until('Prometheus sees the crash', async () => {
        const r = await fetch(`${monitor.prometheusUrl}/api/v1/query?query=${query}`);
        const body = (await r.json()) as { data: { result: { metric: Record<string, string> }[] } };
        return body.data.result.length ? body.data.result : undefined;
      });
      assert.deepEqual(
        down.map((r) => r.metric.server_id),
        [serverId],
      );
      assert.equal(down[0].metric.vnfc_id, info.vnfcResourceInfo?.[0].id);
    });
  });
}

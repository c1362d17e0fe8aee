/**
 * The simulated VIM's admin API (/bosun/v1/sim) on SQLite and PostgreSQL, against instances the
 * sim driver really created in the server's database: topology, zone exhaustion (Nova's
 * message), host down and up, server crash, per-server health, injected faults (fail, hang,
 * counts, validation); and in oauth2 mode only the bosun:admin scope gets in.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { InfraError } from '../../../src/vims/contract.ts';
import { SIM_VIM_TYPE } from '../../../src/vims/drivers/sim/config.ts';
import { createSimDriver } from '../../../src/vims/drivers/sim/driver.ts';
import type { SimFault } from '../../../src/vims/drivers/sim/faults.ts';
import type { ServerHealth } from '../../../src/vims/drivers/sim/health.ts';
import type { SimHost, SimServer, SimZone } from '../../../src/vims/drivers/sim/inventory.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { context, grantFor, instantiatePlan, MAIN_SAMPLE, sampleVnfd } from '../../vims/plans.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';

const BASE = '/bosun/v1/sim';
const VIM = { id: 'default', vimType: SIM_VIM_TYPE };

/** Instantiates the main sample through the real driver on the server's database. */
async function instantiate(
  server: TestServer,
  zone?: string,
): Promise<{ instanceId: string; info: InstantiatedVnfInfo }> {
  const vnfd = await sampleVnfd(MAIN_SAMPLE);
  const plan = instantiatePlan(vnfd);
  const instanceId = randomUUID();
  const driver = createSimDriver({ db: server.context.db, sim: server.config.sim });
  const ctx = context(VIM, vnfd, {
    instanceId,
    grant: grantFor(
      plan.vnfcs.map((v) => v.id),
      zone,
    ),
  });
  const result = await driver.instantiate(ctx, plan);
  return { instanceId, info: result.instantiatedVnfInfo as InstantiatedVnfInfo };
}

async function failure(work: Promise<unknown>): Promise<InfraError> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof InfraError, String(err));
    return err;
  }
  assert.fail('expected a failure');
}

for (const dialect of DIALECTS) {
  describe(`simulated VIM admin API on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, { config: { sim: { operationDelayMs: 0 } } });
    });
    after(() => server.close());

    test('zones, hosts and flavors of the default topology', async () => {
      const zones = await http<SimZone[]>(server.url, 'GET', `${BASE}/zones`);
      assert.equal(zones.status, 200, zones.text);
      assert.deepEqual(
        zones.body.map((z) => [z.name, z.hosts, z.hostsUp, z.capacity.vcpus, z.exhausted]),
        [
          ['zone-a', 4, 4, 128, false],
          ['zone-b', 4, 4, 128, false],
        ],
      );
      const hosts = await http<SimHost[]>(server.url, 'GET', `${BASE}/hosts?zone=zone-b`);
      assert.deepEqual(
        hosts.body.map((h) => h.name),
        ['zone-b-host-1', 'zone-b-host-2', 'zone-b-host-3', 'zone-b-host-4'],
      );
      assert.deepEqual(hosts.body[0].capacity, { vcpus: 32, ramMb: 131072, diskGb: 2048 });
      const flavors = await http<{ name: string }[]>(server.url, 'GET', `${BASE}/flavors`);
      assert.ok(flavors.body.some((f) => f.name === 'm1.tiny'));
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/hosts?colour=red`), 400));
    });

    test("an exhausted zone refuses servers with Nova's message until restored", async () => {
      const exhausted = await http<SimZone>(server.url, 'POST', `${BASE}/zones/zone-b/exhaust`);
      assert.equal(exhausted.status, 200, exhausted.text);
      assert.equal(exhausted.body.exhausted, true);
      try {
        const err = await failure(instantiate(server, 'zone-b'));
        assert.equal(err.code, 'NO_VALID_HOST');
        assert.match(err.message, /^No valid host was found/);
      } finally {
        await http(server.url, 'POST', `${BASE}/zones/zone-b/restore`);
      }
      const { info } = await instantiate(server, 'zone-b');
      assert.ok(info.vnfcResourceInfo?.every((v) => v.zoneId === 'zone-b'));
      const used = (await http<SimZone[]>(server.url, 'GET', `${BASE}/zones`)).body.find(
        (z) => z.name === 'zone-b',
      );
      assert.equal(used?.used.vcpus, info.vnfcResourceInfo?.length);
      assert.ok(isProblem(await http(server.url, 'POST', `${BASE}/zones/zone-z/exhaust`), 404));
    });

    test('a host going down puts its servers in ERROR; health says why; up brings them back', async () => {
      const { instanceId, info } = await instantiate(server, 'zone-a');
      const servers = await http<SimServer[]>(server.url, 'GET', `${BASE}/servers?instanceId=${instanceId}`);
      assert.equal(servers.body.length, info.vnfcResourceInfo?.length);
      const host = servers.body[0].host;
      const down = await http<SimHost & { serversAffected: number }>(
        server.url,
        'POST',
        `${BASE}/hosts/${host}/down`,
      );
      assert.equal(down.status, 200, down.text);
      assert.equal(down.body.state, 'down');
      assert.ok(down.body.serversAffected >= 1);
      const health = await http<ServerHealth[]>(server.url, 'GET', `${BASE}/health?instanceId=${instanceId}`);
      for (const h of health.body) {
        if (h.host === host) {
          assert.equal(h.state, 'ERROR');
          assert.match(h.reason ?? '', /host-down/);
        } else assert.equal(h.state, 'ACTIVE');
      }
      const driver = createSimDriver({ db: server.context.db, sim: server.config.sim });
      const vnfcHealth = await driver.health(VIM, instanceId, info);
      assert.deepEqual(
        vnfcHealth.filter((h) => h.state === 'ERROR').map((h) => h.host),
        health.body.filter((h) => h.state === 'ERROR').map((h) => h.host),
      );
      // A down host takes no new server: zone-a still has three.
      const again = await instantiate(server, 'zone-a');
      assert.ok(again.info.vnfcResourceInfo?.every((v) => v.metadata?.host !== host));
      await http(server.url, 'POST', `${BASE}/hosts/${host}/up`);
      const healed = await http<ServerHealth[]>(server.url, 'GET', `${BASE}/health?instanceId=${instanceId}`);
      assert.ok(healed.body.every((h) => h.state === 'ACTIVE'));
      assert.ok(isProblem(await http(server.url, 'POST', `${BASE}/hosts/nohost/down`), 404));
    });

    test('a crashed server is ERROR with its reason', async () => {
      const { instanceId } = await instantiate(server);
      const [first] = (await http<SimServer[]>(server.url, 'GET', `${BASE}/servers?instanceId=${instanceId}`))
        .body;
      const crashed = await http<SimServer>(server.url, 'POST', `${BASE}/servers/${first.id}/crash`, {
        body: { reason: 'kernel panic' },
      });
      assert.equal(crashed.status, 200, crashed.text);
      assert.equal(crashed.body.status, 'ERROR');
      assert.equal(crashed.body.fault, 'crashed: kernel panic');
      const shown = await http<SimServer>(server.url, 'GET', `${BASE}/servers/${first.id}`);
      assert.equal(shown.body.status, 'ERROR');
      assert.ok(
        isProblem(await http(server.url, 'POST', `${BASE}/servers/${randomUUID()}/crash`, { body: {} }), 404),
      );
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/servers/${randomUUID()}`), 404));
    });

    test('injected faults: the next N calls of a kind fail with the message, then calls succeed', async () => {
      const made = await http<SimFault>(server.url, 'POST', `${BASE}/faults`, {
        body: {
          kind: 'network.create',
          action: 'fail',
          message: 'Quota exceeded for resources: network.',
          count: 2,
        },
      });
      assert.equal(made.status, 201, made.text);
      assert.ok(made.headers.get('location')?.endsWith(`${BASE}/faults/${made.body.id}`));
      for (const left of [1, 0]) {
        const err = await failure(instantiate(server));
        assert.equal(err.code, 'VIM_OPERATION_FAILED');
        assert.equal(err.message, 'Quota exceeded for resources: network.');
        const faults = await http<SimFault[]>(server.url, 'GET', `${BASE}/faults`);
        assert.deepEqual(
          faults.body.map((f) => f.remaining),
          left ? [left] : [],
        );
      }
      await instantiate(server);
    });

    test('a hang lasts until its timeout and fails as a VIM timeout', async () => {
      await http(server.url, 'POST', `${BASE}/faults`, {
        body: { kind: 'server.create', action: 'hang', timeoutMs: 30 },
      });
      const err = await failure(instantiate(server));
      assert.equal(err.code, 'VIM_TIMEOUT');
    });

    test('faults: listing, removal, clearing and validation', async () => {
      const one = await http<SimFault>(server.url, 'POST', `${BASE}/faults`, {
        body: { kind: '*', action: 'fail', count: 5 },
      });
      await http(server.url, 'POST', `${BASE}/faults`, { body: { kind: 'port.delete', action: 'hang' } });
      assert.equal((await http<SimFault[]>(server.url, 'GET', `${BASE}/faults`)).body.length, 2);
      assert.equal((await http(server.url, 'DELETE', `${BASE}/faults/${one.body.id}`)).status, 204);
      assert.ok(isProblem(await http(server.url, 'DELETE', `${BASE}/faults/${one.body.id}`), 404));
      const cleared = await http<{ removed: number }>(server.url, 'DELETE', `${BASE}/faults`);
      assert.deepEqual(cleared.body, { removed: 1 });
      for (const body of [
        { kind: 'server.explode', action: 'fail' },
        { kind: 'server.create', action: 'crash' },
        { kind: 'server.create', action: 'fail', count: 0 },
        { kind: 'server.create', action: 'fail', timeoutMs: 10 },
      ]) {
        assert.ok(
          isProblem(await http(server.url, 'POST', `${BASE}/faults`, { body }), 400),
          JSON.stringify(body),
        );
      }
    });
  });
}

describe('simulated VIM admin API with oauth2', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { config: { auth: { mode: 'oauth2' } } });
  });
  after(() => server.close());

  test('only the admin scope gets in', async () => {
    assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/zones`), 401));
    const tenant = await tokenOf(server, await addClient(server, ['vnflcm:v2:all']));
    assert.ok(
      isProblem(
        await http(server.url, 'POST', `${BASE}/hosts/zone-a-host-1/down`, { headers: bearer(tenant) }),
        403,
      ),
    );
    const admin = await tokenOf(server, await addClient(server, ['bosun:admin']));
    const zones = await http<SimZone[]>(server.url, 'GET', `${BASE}/zones`, { headers: bearer(admin) });
    assert.equal(zones.status, 200, zones.text);
    assert.equal(zones.body.length, 2);
  });
});

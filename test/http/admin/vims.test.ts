/**
 * The VIM registry over its admin API (/bosun/v1/vims) and resolveVim, on SQLite and
 * PostgreSQL: the simulated VIM registered as the shared default at start, registration with
 * credentials sealed at rest and never returned, defaults per project, resolution of
 * vimConnectionInfo in the v1 array, v2 map and stored (sealed) shapes, deletion (refused while
 * VNF instances use the VIM); admin only.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sealVimConnectionInfo } from '../../../src/vims/connection-info.ts';
import { InfraError } from '../../../src/vims/contract.ts';
import { SIM_VIM_TYPE } from '../../../src/vims/drivers/sim/config.ts';
import type { VimRecord } from '../../../src/vims/registry.ts';
import { resolveVim } from '../../../src/vims/resolve.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';
import {
  createInstance,
  H,
  INSTANTIATE,
  onboardOnce,
  runTask,
  V2,
  waitOpOcc,
} from '../vnflcm/lcm-support.ts';

const BASE = '/bosun/v1/vims';
const SIM = '/bosun/v1/sim';
const OPENSTACK = 'ETSINFV.OPENSTACK_KEYSTONE.V_3';
const TERRAFORM = 'TERRAFORM.V1';
const SERVED = [SIM_VIM_TYPE, OPENSTACK, 'openstack', 'ETSINFV.KUBERNETES.V_1', 'kubernetes'];
const SECRET = 'hunter2-very-secret';

/** A VIM with credentials to seal, of the type a driver serves. */
const cloud = (name: string, projectId = 'tenant-a') => ({
  name,
  vimType: SIM_VIM_TYPE,
  projectId,
  description: 'lab cloud',
  interfaceInfo: { endpoint: 'https://keystone.example:5000/v3', ssl_ca_cert: '-----BEGIN CERT' },
  accessInfo: { username: 'nfv', password: SECRET, project: 'nfv', region: 'RegionOne' },
  extra: { zones: ['nova'] },
});

async function infraError(work: Promise<unknown>): Promise<InfraError> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof InfraError, String(err));
    return err;
  }
  assert.fail('expected an InfraError');
}

for (const dialect of DIALECTS) {
  describe(`VIM registry on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect);
    });
    after(() => server.close());

    test('the simulated VIM is the shared default out of the box', async () => {
      const list = await http<VimRecord[]>(server.url, 'GET', BASE);
      assert.equal(list.status, 200, list.text);
      const sim = list.body.find((v) => v.name === 'bosun-sim');
      assert.ok(sim);
      assert.equal(sim.vimType, SIM_VIM_TYPE);
      assert.equal(sim.isDefault, true);
      assert.equal(sim.shared, true);
      const { db, box } = server.context;
      const vim = await resolveVim(db, box, 'any-project');
      assert.deepEqual(
        { id: vim.id, vimId: vim.vimId, vimType: vim.vimType },
        { id: 'default', vimId: sim.id, vimType: SIM_VIM_TYPE },
      );
    });

    test('register: credentials are sealed at rest and never returned', async () => {
      const made = await http<VimRecord>(server.url, 'POST', BASE, { body: cloud('lab') });
      assert.equal(made.status, 201, made.text);
      assert.equal(made.headers.get('location'), `${server.url}${BASE}/${made.body.id}`);
      assert.ok(
        !made.text.includes(SECRET) && !made.text.includes('accessInfo') && !made.text.includes('BEGIN CERT'),
      );
      assert.deepEqual(made.body.interfaceInfo, { endpoint: 'https://keystone.example:5000/v3' });
      assert.equal(made.body.hasCredentials, true);
      assert.equal(made.body.isDefault, false);
      const shown = await http<VimRecord>(server.url, 'GET', `${BASE}/${made.body.id}`);
      assert.deepEqual(shown.body, made.body);
      const row = await server.context.db.kysely
        .selectFrom('vims')
        .selectAll()
        .where('id', '=', made.body.id)
        .executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(row).includes(SECRET), 'no secret in clear in the database');
      assert.ok(row.sealed_secrets?.startsWith('v1.'));
      assert.ok(isProblem(await http(server.url, 'POST', BASE, { body: cloud('lab') }), 409));
      assert.ok(isProblem(await http(server.url, 'POST', BASE, { body: { vimType: SIM_VIM_TYPE } }), 400));
      assert.ok(
        isProblem(await http(server.url, 'POST', BASE, { body: { name: 'x', vimType: 'bad type!' } }), 400),
      );
    });

    test('register answers with the zones the VIM showed; resources reads zones, hosts and free capacity live', async () => {
      const made = await http<VimRecord>(server.url, 'POST', BASE, { body: cloud('checked') });
      assert.equal(made.status, 201, made.text);
      const zones = await server.context.db.kysely
        .selectFrom('sim_zones')
        .select('name')
        .orderBy('name')
        .execute();
      assert.ok(zones.length > 1);
      assert.deepEqual(
        made.body.zones,
        zones.map((z) => z.name),
      );
      const stored = await http<VimRecord>(server.url, 'GET', `${BASE}/${made.body.id}`);
      assert.deepEqual(stored.body.zones, made.body.zones, 'the zones seen at registration are kept');
      type Described = {
        zones: {
          name: string;
          hosts: {
            name: string;
            up: boolean;
            vcpus: number;
            vcpusUsed: number;
            ramMb: number;
            ramMbUsed: number;
          }[];
        }[];
      };
      const live = await http<Described>(server.url, 'GET', `${BASE}/${made.body.id}/resources`);
      assert.equal(live.status, 200, live.text);
      const hosts = await server.context.db.kysely.selectFrom('sim_hosts').selectAll().execute();
      assert.deepEqual(
        live.body.zones.map((z) => z.name),
        made.body.zones,
      );
      for (const zone of live.body.zones) {
        const mine = hosts.filter((h) => h.zone === zone.name).sort((a, b) => a.name.localeCompare(b.name));
        assert.deepEqual(
          zone.hosts.map((h) => [h.name, h.up, h.vcpus, h.ramMb]),
          mine.map((h) => [h.name, h.state === 'up', h.vcpus, h.ram_mb]),
        );
      }
      // A host taken down shows down, read live.
      const host = hosts[0];
      assert.equal((await http(server.url, 'POST', `${SIM}/hosts/${host.name}/down`)).status, 200);
      try {
        const again = await http<Described>(server.url, 'GET', `${BASE}/${made.body.id}/resources`);
        const seen = again.body.zones.flatMap((z) => z.hosts).find((h) => h.name === host.name);
        assert.equal(seen?.up, false);
      } finally {
        await http(server.url, 'POST', `${SIM}/hosts/${host.name}/up`);
      }
      assert.ok(
        isProblem(
          await http(server.url, 'GET', `${BASE}/00000000-0000-4000-8000-000000000000/resources`),
          404,
        ),
      );
    });

    test('a VIM type no driver serves is refused (422) with the served types', async () => {
      const refused = await http<{ detail: string; servedVimTypes: string[] }>(server.url, 'POST', BASE, {
        body: { ...cloud('keystone-lab'), vimType: TERRAFORM },
      });
      assert.ok(isProblem(refused, 422), refused.text);
      assert.equal(
        refused.body.detail,
        `No driver serves VIM type ${TERRAFORM}: Bosun serves ${SERVED.join(', ')}. Register a VIM of a served type.`,
      );
      assert.deepEqual(refused.body.servedVimTypes, SERVED);
      const listed = await http<VimRecord[]>(server.url, 'GET', `${BASE}?projectId=tenant-a`);
      assert.ok(!listed.body.some((v) => v.name === 'keystone-lab'), 'nothing registered');
    });

    test('a project default, and vimConnectionInfo in every shape, resolve with credentials opened', async () => {
      const { db, box } = server.context;
      const made = await http<VimRecord>(server.url, 'POST', BASE, {
        body: { ...cloud('tenant-b-cloud', 'tenant-b'), isDefault: true },
      });
      assert.equal(made.body.isDefault, true);
      const byDefault = await resolveVim(db, box, 'tenant-b');
      assert.equal(byDefault.vimId, made.body.id);
      assert.equal(byDefault.accessInfo?.password, SECRET);
      assert.equal(byDefault.interfaceInfo?.ssl_ca_cert, '-----BEGIN CERT');
      // Another project still gets the shared simulated VIM.
      assert.equal((await resolveVim(db, box, 'tenant-c')).vimType, SIM_VIM_TYPE);
      // v1 array, v2 map, and the stored form all complete from the registry.
      const v1 = await resolveVim(db, box, 'tenant-b', [
        { id: 'vim1', vimId: made.body.id, vimType: SIM_VIM_TYPE },
      ]);
      const v2 = await resolveVim(db, box, 'tenant-b', {
        vim1: { vimId: made.body.id, vimType: SIM_VIM_TYPE },
      });
      assert.deepEqual(v1, v2);
      assert.equal(v1.id, 'vim1');
      assert.equal(v1.accessInfo?.password, SECRET);
      const adHoc = {
        vim2: { vimType: OPENSTACK, accessInfo: { password: 'other' }, interfaceInfo: { endpoint: 'x' } },
      };
      const stored = sealVimConnectionInfo(box, adHoc);
      assert.ok(!JSON.stringify(stored).includes('other'));
      const opened = await resolveVim(db, box, 'tenant-b', stored);
      assert.deepEqual(opened.accessInfo, { password: 'other' });
      // A VIM of another project is not visible; an unknown one is NOT_FOUND.
      const foreign = await infraError(
        resolveVim(db, box, 'tenant-c', { v: { vimId: made.body.id, vimType: SIM_VIM_TYPE } }),
      );
      assert.equal(foreign.code, 'NOT_FOUND');
      // Make the project default explicit through the API, to the shared VIM, then back.
      const sim = (await http<VimRecord[]>(server.url, 'GET', `${BASE}?projectId=tenant-b`)).body.find(
        (v) => v.shared,
      );
      assert.ok(sim);
      const set = await http<VimRecord>(server.url, 'POST', `${BASE}/${sim.id}/default`, {
        body: { projectId: 'tenant-b' },
      });
      assert.equal(set.status, 200, set.text);
      assert.equal((await resolveVim(db, box, 'tenant-b')).vimId, sim.id);
      const refused = await http(server.url, 'POST', `${BASE}/${made.body.id}/default`, {
        body: { projectId: 'tenant-c' },
      });
      assert.ok(isProblem(refused, 409));
    });

    test('list per project, delete', async () => {
      const made = await http<VimRecord>(server.url, 'POST', BASE, {
        body: { ...cloud('gone', 'tenant-d'), isDefault: true },
      });
      const listed = await http<VimRecord[]>(server.url, 'GET', `${BASE}?projectId=tenant-d`);
      assert.deepEqual(listed.body.map((v) => v.name).sort(), ['bosun-sim', 'gone']);
      assert.equal((await http(server.url, 'DELETE', `${BASE}/${made.body.id}`)).status, 204);
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/${made.body.id}`), 404));
      assert.ok(isProblem(await http(server.url, 'DELETE', `${BASE}/${made.body.id}`), 404));
      const { db, box } = server.context;
      assert.equal(
        (await resolveVim(db, box, 'tenant-d')).vimType,
        SIM_VIM_TYPE,
        'back to the shared default',
      );
    });

    test('a VIM that instances use is not deleted (409 naming them) until they are terminated', async () => {
      const vnfdId = String((await onboardOnce(server.url)).vnfdId);
      const sim2 = await http<VimRecord>(server.url, 'POST', BASE, {
        body: { name: 'sim-two', vimType: SIM_VIM_TYPE, projectId: 'default' },
      });
      assert.equal(sim2.status, 201, sim2.text);
      const on = { vimConnectionInfo: { vim1: { vimId: sim2.body.id, vimType: SIM_VIM_TYPE } } };
      const a = await createInstance(server.url, vnfdId);
      const b = await createInstance(server.url, vnfdId);
      assert.equal(
        (await runTask(server.url, a.id, 'instantiate', { ...INSTANTIATE, ...on })).operationState,
        'COMPLETED',
      );
      // b's instantiate fails at the VIM and waits in FAILED_TEMP: its servers may be there.
      await http(server.url, 'POST', `${SIM}/faults`, { body: { kind: 'server.create', action: 'fail' } });
      const failed = await runTask(server.url, b.id, 'instantiate', { ...INSTANTIATE, ...on });
      assert.equal(failed.operationState, 'FAILED_TEMP');

      const refused = await http<{ detail: string; vnfInstanceCount: number; vnfInstanceIds: string[] }>(
        server.url,
        'DELETE',
        `${BASE}/${sim2.body.id}`,
      );
      assert.ok(isProblem(refused, 409), refused.text);
      assert.equal(refused.body.vnfInstanceCount, 2);
      assert.deepEqual(refused.body.vnfInstanceIds, [a.id, b.id].sort());
      assert.match(refused.body.detail, new RegExp(`used by 2 VNF instances \\(.*${a.id}`));
      assert.equal((await http(server.url, 'GET', `${BASE}/${sim2.body.id}`)).status, 200, 'still there');

      // The shared default is used by instances that named no VIM, the same way.
      const c = await createInstance(server.url, vnfdId);
      assert.equal((await runTask(server.url, c.id, 'instantiate', INSTANTIATE)).operationState, 'COMPLETED');
      const sim = (await http<VimRecord[]>(server.url, 'GET', BASE)).body.find((v) => v.name === 'bosun-sim');
      assert.ok(sim);
      const shared = await http<{ detail: string }>(server.url, 'DELETE', `${BASE}/${sim.id}`);
      assert.ok(isProblem(shared, 409), shared.text);
      assert.match(shared.body.detail, new RegExp(`used by 1 VNF instance \\(${c.id}\\): terminate it`));
      assert.equal(
        (await runTask(server.url, c.id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
        'COMPLETED',
      );

      await http(server.url, 'DELETE', `${SIM}/faults`);
      const rollback = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, {
        headers: H,
      });
      assert.equal(rollback.status, 202, rollback.text);
      assert.equal((await waitOpOcc(server.url, failed.id)).operationState, 'ROLLED_BACK');
      const one = await http<{ vnfInstanceIds: string[] }>(server.url, 'DELETE', `${BASE}/${sim2.body.id}`);
      assert.ok(isProblem(one, 409));
      assert.deepEqual(one.body.vnfInstanceIds, [a.id]);
      assert.equal(
        (await runTask(server.url, a.id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
        'COMPLETED',
      );
      // a is terminated: its vimConnectionInfo still names the VIM, but nothing of it is there.
      assert.equal((await http(server.url, 'DELETE', `${BASE}/${sim2.body.id}`)).status, 204);
    });
  });
}

describe('VIM registry API with oauth2', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { config: { auth: { mode: 'oauth2' } } });
  });
  after(() => server.close());

  test("only the admin scope gets in; a VIM is registered in the caller's project by default", async () => {
    assert.ok(isProblem(await http(server.url, 'GET', BASE), 401));
    const tenant = await tokenOf(server, await addClient(server, ['vnflcm:v2:all']));
    assert.ok(
      isProblem(await http(server.url, 'POST', BASE, { headers: bearer(tenant), body: cloud('x') }), 403),
    );
    const admin = await tokenOf(server, await addClient(server, ['bosun:admin'], 'ops'));
    const { projectId: _p, ...body } = cloud('ops-cloud');
    const made = await http<VimRecord>(server.url, 'POST', BASE, { headers: bearer(admin), body });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.projectId, 'ops');
  });
});

describe('without the automatic default', () => {
  test('a project with no default VIM cannot resolve one', async () => {
    const server = await startTestServer('sqlite', { config: { sim: { registerDefaultVim: false } } });
    try {
      const err = await infraError(resolveVim(server.context.db, server.context.box, 'default'));
      assert.equal(err.code, 'NOT_FOUND');
      assert.match(err.message, /no default VIM/);
      assert.deepEqual((await http(server.url, 'GET', BASE)).body, []);
    } finally {
      await server.close();
    }
  });
});

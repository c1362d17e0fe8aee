/**
 * Tacker's legacy /v1.0/vims on Bosun's VIM registry, on SQLite and PostgreSQL: create, show,
 * list (Tacker's filters and fields), update and delete in Tacker's shapes with and without the
 * client's `.json` suffix; the password sealed and never returned; the registration check's zones;
 * a VIM registered with is_default is its project's default VIM for LCM and cannot be deleted
 * while the instance uses it; Tacker's one-default rule; what cannot change or must not be done
 * refused by name; project isolation and scopes with OAuth 2.0. (The same API against the real
 * Keystone, through the real client, runs in the Tacker client flow and in test/vims/openstack/.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SIM_VIM_TYPE } from '../../../src/vims/drivers/sim/config.ts';
import { openVim } from '../../../src/vims/registry.ts';
import { resolveVim } from '../../../src/vims/resolve.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';
import { createInstance, INSTANTIATE, onboardOnce, runTask } from '../vnflcm/lcm-support.ts';

const BASE = '/v1.0/vims';
const PASSWORD = 'vim-pass-Secr3t';

interface LegacyVim {
  id: string;
  type: string;
  tenant_id: string;
  name: string;
  description: string;
  placement_attr: { regions: string[]; zones: string[] };
  auth_url: string;
  vim_project: { name: string; project_domain_name: string };
  auth_cred: Record<string, unknown>;
  status: string;
  is_default: boolean;
  shared: boolean;
  created_at: string;
  updated_at: string | null;
}

/** What `openstack vim register --config-file vim.yaml` sends (vim.yaml's fields), on the sim. */
const registration = (name: string, extra: Record<string, unknown> = {}) => ({
  vim: {
    auth_url: 'https://keystone.example:5000/v3',
    type: SIM_VIM_TYPE,
    vim_project: { name: 'nfv', project_domain_name: 'Default' },
    auth_cred: { username: 'nfv-user', password: PASSWORD, user_domain_name: 'Default', cert_verify: 'True' },
    name,
    description: 'lab',
    is_default: false,
    ...extra,
  },
});

for (const dialect of DIALECTS) {
  describe(`Tacker legacy /v1.0/vims on ${dialect}`, () => {
    let server: TestServer;
    let simZones: string[];
    before(async () => {
      server = await startTestServer(dialect, { config: { sim: { operationDelayMs: 0 } } });
      simZones = (
        await server.context.db.kysely.selectFrom('sim_zones').select('name').orderBy('name').execute()
      ).map((z) => z.name);
    });
    after(() => server.close());

    test("register, show and list in Tacker's shapes; the password is sealed and never returned", async () => {
      const made = await http<{ vim: LegacyVim }>(server.url, 'POST', `${BASE}.json`, {
        body: registration('lab-one'),
      });
      assert.equal(made.status, 201, made.text);
      const vim = made.body.vim;
      assert.equal(made.headers.get('location'), `${server.url}${BASE}/${vim.id}`);
      assert.deepEqual(
        { ...vim, id: undefined, created_at: undefined },
        {
          id: undefined,
          type: SIM_VIM_TYPE,
          tenant_id: 'default',
          name: 'lab-one',
          description: 'lab',
          placement_attr: { regions: [], zones: simZones },
          auth_url: 'https://keystone.example:5000/v3',
          vim_project: { name: 'nfv', project_domain_name: 'Default' },
          auth_cred: { username: 'nfv-user', user_domain_name: 'Default', cert_verify: 'True' },
          status: 'REACHABLE',
          is_default: false,
          shared: false,
          created_at: undefined,
          updated_at: null,
          extra: {},
        },
      );
      assert.ok(!made.text.includes(PASSWORD));
      const opened = await openVim(server.context.db, server.context.box, vim.id);
      assert.deepEqual(opened?.accessInfo, {
        username: 'nfv-user',
        password: PASSWORD,
        userDomain: 'Default',
        project: 'nfv',
        projectDomain: 'Default',
      });
      const row = await server.context.db.kysely
        .selectFrom('vims')
        .selectAll()
        .where('id', '=', vim.id)
        .executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(row).includes(PASSWORD), 'sealed at rest');

      for (const path of [`${BASE}/${vim.id}`, `${BASE}/${vim.id}.json`]) {
        const shown = await http<{ vim: LegacyVim }>(server.url, 'GET', path);
        assert.equal(shown.status, 200, shown.text);
        assert.deepEqual(shown.body.vim, vim);
      }
      for (const path of [BASE, `${BASE}.json`]) {
        const listed = await http<{ vims: LegacyVim[] }>(server.url, 'GET', path);
        assert.equal(listed.status, 200, listed.text);
        assert.ok(listed.body.vims.some((v) => v.id === vim.id));
        const sim = listed.body.vims.find((v) => v.name === 'bosun-sim');
        assert.deepEqual([sim?.shared, sim?.is_default, sim?.status], [true, true, 'ACTIVE']);
        assert.ok(!listed.text.includes(PASSWORD));
      }
      // How the client finds a VIM by name or id: ?name=…&fields=id, ?id=…&fields=id.
      const byName = await http<{ vims: unknown[] }>(
        server.url,
        'GET',
        `${BASE}.json?name=lab-one&fields=id`,
      );
      assert.deepEqual(byName.body, { vims: [{ id: vim.id }] });
      const byId = await http<{ vims: unknown[] }>(
        server.url,
        'GET',
        `${BASE}.json?id=${vim.id}&fields=id,name`,
      );
      assert.deepEqual(byId.body, { vims: [{ id: vim.id, name: 'lab-one' }] });
      const defaults = await http<{ vims: LegacyVim[] }>(server.url, 'GET', `${BASE}.json?is_default=True`);
      assert.deepEqual(
        defaults.body.vims.map((v) => v.name),
        ['bosun-sim'],
      );
      const badField = await http<{ detail: string }>(server.url, 'GET', `${BASE}.json?fields=id,password`);
      assert.ok(isProblem(badField, 400));
      assert.match(badField.body.detail, /^fields names password, which a VIM does not have/);
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}.json?colour=red`), 400));
      assert.ok(
        isProblem(await http(server.url, 'GET', `${BASE}/00000000-0000-4000-8000-000000000000.json`), 404),
      );
    });

    test('what must not be done is refused by name, and nothing is stored', async () => {
      const refuse = async (body: object, status: number, detail: RegExp) => {
        const r = await http<{ detail: string }>(server.url, 'POST', `${BASE}.json`, { body });
        assert.ok(isProblem(r, status), r.text);
        assert.match(r.body.detail, detail);
      };
      const unverified = registration('unverified');
      unverified.vim.auth_cred.cert_verify = 'False';
      await refuse(unverified, 422, /^auth_cred\.cert_verify False is refused: Bosun always verifies/);
      await refuse(
        registration('k8s', { type: 'TERRAFORM.V1' }),
        422,
        /^No driver serves VIM type TERRAFORM\.V1/,
      );
      await refuse(registration('x').vim, 400, /vim/);
      await refuse({ vim: { ...registration('x').vim, auth_cred: { token: 'x' } } }, 400, /token/);
      await http(server.url, 'POST', `${BASE}.json`, { body: registration('twice') });
      await refuse(registration('twice'), 409, /A VIM named twice is already registered in project default/);
      const listed = await http<{ vims: LegacyVim[] }>(server.url, 'GET', `${BASE}.json`);
      assert.ok(!listed.body.vims.some((v) => ['unverified', 'k8s', 'x'].includes(v.name)));
      // Plain http: there is no certificate to verify, so cert_verify False changes nothing.
      const plain = registration('plain-http', { auth_url: 'http://keystone.example:5000/v3' });
      plain.vim.auth_cred.cert_verify = 'False';
      assert.equal((await http(server.url, 'POST', `${BASE}.json`, { body: plain })).status, 201);
    });

    test('update: name, description, credentials (an empty password keeps the stored one); auth_url, type, tenant_id cannot change', async () => {
      const made = (
        await http<{ vim: LegacyVim }>(server.url, 'POST', `${BASE}.json`, { body: registration('upd') })
      ).body.vim;
      const put = (body: object) =>
        http<{ vim: LegacyVim; detail: string }>(server.url, 'PUT', `${BASE}/${made.id}.json`, { body });
      const renamed = await put({ vim: { name: 'upd-renamed', description: 'moved' } });
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.body.vim.name, 'upd-renamed');
      assert.equal(renamed.body.vim.description, 'moved');
      assert.ok(renamed.body.vim.updated_at);
      // `vim set --config-file` whose vim.yaml has no password: the client sends ''.
      const rotated = await put({
        vim: {
          vim_project: { name: 'nfv2', project_domain_name: 'Default' },
          auth_cred: {
            username: 'other-user',
            password: '',
            user_domain_name: 'Default',
            cert_verify: 'True',
          },
        },
      });
      assert.equal(rotated.status, 200, rotated.text);
      assert.deepEqual(rotated.body.vim.vim_project, { name: 'nfv2', project_domain_name: 'Default' });
      const opened = await openVim(server.context.db, server.context.box, made.id);
      assert.equal(opened?.accessInfo?.password, PASSWORD);
      assert.equal(opened?.accessInfo?.username, 'other-user');
      assert.equal(opened?.interfaceInfo.endpoint, 'https://keystone.example:5000/v3');
      const newPassword = await put({ vim: { auth_cred: { password: 'rotated-pass' } } });
      assert.equal(newPassword.status, 200);
      assert.ok(!newPassword.text.includes('rotated-pass'));
      assert.equal(
        (await openVim(server.context.db, server.context.box, made.id))?.accessInfo?.password,
        'rotated-pass',
      );
      for (const field of ['auth_url', 'type', 'tenant_id']) {
        const r = await put({ vim: { [field]: 'x' } });
        assert.ok(isProblem(r, 400), r.text);
        assert.match(r.body.detail, new RegExp(`^${field} of a VIM cannot change`));
      }
      assert.ok(isProblem(await put({ vim: { name: 'twice' } }), 409));
    });

    test('is_default: the VIM serves its project LCM, one default per project, no delete while used', async () => {
      const first = (
        await http<{ vim: LegacyVim }>(server.url, 'POST', `${BASE}.json`, {
          body: registration('default-one', { is_default: true, tenant_id: 'default' }),
        })
      ).body.vim;
      assert.equal(first.is_default, true);
      const { db, box } = server.context;
      assert.equal((await resolveVim(db, box, 'default')).vimId, first.id);
      const second = await http<{ vim: LegacyVim; detail: string }>(server.url, 'POST', `${BASE}.json`, {
        body: registration('default-two', { is_default: true }),
      });
      assert.ok(isProblem(second, 409));
      assert.match(
        second.body.detail,
        new RegExp(`already has a default VIM \\(${first.id}\\): make it non-default first`),
      );
      // An instance with no vimConnectionInfo runs on the project's default: this VIM.
      const vnfdId = String((await onboardOnce(server.url)).vnfdId);
      const instance = await createInstance(server.url, vnfdId);
      const done = await runTask(server.url, instance.id, 'instantiate', INSTANTIATE);
      assert.equal(done.operationState, 'COMPLETED');
      const used = await http<{ vnfInstanceIds: string[] }>(server.url, 'DELETE', `${BASE}/${first.id}.json`);
      assert.ok(isProblem(used, 409), used.text);
      assert.deepEqual(used.body.vnfInstanceIds, [instance.id]);
      await runTask(server.url, instance.id, 'terminate', { terminationType: 'FORCEFUL' });
      // Make it non-default, then another can be.
      const off = await http<{ vim: LegacyVim }>(server.url, 'PUT', `${BASE}/${first.id}`, {
        body: { vim: { is_default: false } },
      });
      assert.equal(off.body.vim.is_default, false);
      const two = await http<{ vim: LegacyVim }>(server.url, 'POST', `${BASE}.json`, {
        body: registration('default-two', { is_default: true }),
      });
      assert.equal(two.status, 201, two.text);
      assert.equal((await resolveVim(db, box, 'default')).vimId, two.body.vim.id);
      assert.equal((await http(server.url, 'DELETE', `${BASE}/${first.id}.json`)).status, 204);
      assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/${first.id}`), 404));
      assert.equal((await http(server.url, 'DELETE', `${BASE}/${two.body.vim.id}`)).status, 204);
      assert.equal(
        (await resolveVim(db, box, 'default')).vimType,
        SIM_VIM_TYPE,
        'back to the shared default',
      );
    });
  });
}

describe('Tacker legacy /v1.0/vims with OAuth 2.0: projects and scopes', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { config: { auth: { mode: 'oauth2' } } });
  });
  after(() => server.close());

  test("a project registers, sees and changes its own VIMs only; the shared VIM is the administrator's", async () => {
    assert.ok(isProblem(await http(server.url, 'GET', `${BASE}.json`), 401));
    const a = bearer(await tokenOf(server, await addClient(server, ['vnflcm:v2:all'], 'tenant-a')));
    const b = bearer(await tokenOf(server, await addClient(server, ['vnflcm:v1:all'], 'tenant-b')));
    const reader = bearer(await tokenOf(server, await addClient(server, ['vnflcm:v2:readonly'], 'tenant-a')));
    const made = await http<{ vim: LegacyVim }>(server.url, 'POST', `${BASE}.json`, {
      headers: a,
      body: registration('a-cloud'),
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.vim.tenant_id, 'tenant-a');
    const foreign = await http<{ detail: string }>(server.url, 'POST', `${BASE}.json`, {
      headers: a,
      body: registration('b-cloud', { tenant_id: 'tenant-b' }),
    });
    assert.ok(isProblem(foreign, 403));
    assert.match(foreign.body.detail, /tenant_id tenant-b is not your project \(tenant-a\)/);
    const seenByB = await http<{ vims: LegacyVim[] }>(server.url, 'GET', `${BASE}.json`, { headers: b });
    assert.deepEqual(
      seenByB.body.vims.map((v) => v.name),
      ['bosun-sim'],
    );
    const id = made.body.vim.id;
    assert.ok(isProblem(await http(server.url, 'GET', `${BASE}/${id}.json`, { headers: b }), 404));
    assert.ok(
      isProblem(
        await http(server.url, 'PUT', `${BASE}/${id}.json`, { headers: b, body: { vim: { name: 'mine' } } }),
        404,
      ),
    );
    assert.ok(isProblem(await http(server.url, 'DELETE', `${BASE}/${id}.json`, { headers: b }), 404));
    const sim = seenByB.body.vims[0];
    const shared = await http<{ detail: string }>(server.url, 'PUT', `${BASE}/${sim.id}.json`, {
      headers: b,
      body: { vim: { description: 'mine now' } },
    });
    assert.ok(isProblem(shared, 403));
    assert.match(shared.body.detail, /shared by every project: only an administrator changes it/);
    assert.equal((await http(server.url, 'GET', `${BASE}/${id}.json`, { headers: reader })).status, 200);
    assert.ok(
      isProblem(
        await http(server.url, 'POST', `${BASE}.json`, { headers: reader, body: registration('r') }),
        403,
      ),
    );
    assert.equal((await http(server.url, 'DELETE', `${BASE}/${id}.json`, { headers: a })).status, 204);
  });
});

/**
 * The registration check against the real mini-openstack, with the OpenStack driver's registry
 * describer: right credentials register the VIM with the zones Nova shows (az1, az2; never Nova's
 * internal zone), a member without the admin role registers with zones and no hosts; a wrong
 * password or an unknown project is 422 with Keystone's words, as is an address outbound.allow
 * does not allow; an endpoint that does not answer or an untrusted certificate is 502; nothing is
 * stored on a failure.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Config, loadConfig } from '../../../src/config/load.ts';
import { SealedBox } from '../../../src/security/sealed-box.ts';
import { ApiError } from '../../../src/sol/problem.ts';
import { type Database, openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import { registerCheckedVim } from '../../../src/vims/checked-registry.ts';
import type { VimConnection } from '../../../src/vims/contract.ts';
import { VimDriverTable } from '../../../src/vims/drivers/index.ts';
import { describeForRegistry } from '../../../src/vims/drivers/openstack/registry-describe.ts';
import { createSimDriver } from '../../../src/vims/drivers/sim/driver.ts';
import { listVims, type NewVim } from '../../../src/vims/registry.ts';
import { DIALECTS, freshDatabaseUrl } from '../../support/databases.ts';
import { type MiniOpenStack, miniOpenStack, testPrefix } from '../../support/mini-openstack.ts';
import { tempDir } from '../../support/temp.ts';

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];

/** An HTTPS server with a self-signed certificate for localhost: no CA bundle trusts it. */
async function untrustedHttps(): Promise<{ url: string; close: () => Promise<void> }> {
  const dir = tempDir('bosun-vim-tls-');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2'].concat([
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      'k.pem',
      '-out',
      'c.pem',
    ]),
    { cwd: dir, stdio: 'pipe' },
  );
  const server = createServer(
    { key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) },
    (_req, res) => res.end('{}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}/v3`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function apiError(work: Promise<unknown>): Promise<ApiError> {
  try {
    await work;
  } catch (err) {
    assert.ok(err instanceof ApiError, String(err));
    return err;
  }
  assert.fail('expected an ApiError');
}

for (const dialect of DIALECTS) {
  describe(`registering an OpenStack VIM on mini-openstack (${dialect})`, () => {
    let cloud: MiniOpenStack;
    let db: Database;
    const tables = (config: Config) =>
      new VimDriverTable([
        {
          vimTypes: ['ETSINFV.OPENSTACK_KEYSTONE.V_3'],
          // Only the describer is exercised here; the infra driver is not called.
          driver: createSimDriver({ db, sim: config.sim }),
          describe: (vim: VimConnection) => describeForRegistry(vim, config),
        },
      ]);
    const depsWith = (allow: string[]) => {
      const config = loadConfig({ env: {}, overrides: { outbound: { allow } } });
      return { db, box: new SealedBox(randomBytes(32)), drivers: tables(config) };
    };
    const vim = (connection: VimConnection, name: string): NewVim => ({
      projectId: 'tenant-os',
      name,
      vimType: connection.vimType,
      ...(connection.interfaceInfo ? { interfaceInfo: connection.interfaceInfo } : {}),
      ...(connection.accessInfo ? { accessInfo: connection.accessInfo } : {}),
    });
    const names = async () => (await listVims(db)).map((v) => v.name);

    before(async () => {
      cloud = await miniOpenStack();
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 4 });
      await migrate(db);
    });
    after(() => db.close());

    test('right credentials: registered with the zones Nova shows, hosts and capacity described', async () => {
      const deps = depsWith(LOOPBACK);
      const name = testPrefix('vim');
      const { record, description } = await registerCheckedVim(deps, vim(cloud.admin, name));
      assert.deepEqual(record.zones, ['az1', 'az2']);
      assert.deepEqual(
        description?.zones.map((z) => [z.name, z.hosts.map((h) => [h.name, h.up, h.vcpus, h.ramMb])]),
        [
          [
            'az1',
            [
              ['compute1', true, 10, 8192],
              ['compute2', true, 10, 8192],
            ],
          ],
          ['az2', [['compute3', true, 10, 8192]]],
        ],
      );
      const member = await registerCheckedVim(deps, vim(cloud.demo, `${name}-member`));
      assert.deepEqual(member.record.zones, ['az1', 'az2']);
      assert.equal(member.description?.hostsVisible, false, 'a member sees zones, not hosts');
    });

    test("a wrong password or an unknown project is 422 with Keystone's words, nothing stored", async () => {
      const deps = depsWith(LOOPBACK);
      const wrong = await apiError(
        registerCheckedVim(
          deps,
          vim(
            { ...cloud.admin, accessInfo: { ...cloud.admin.accessInfo, password: 'not-the-password' } },
            'wrong-pw',
          ),
        ),
      );
      assert.equal(wrong.status, 422);
      assert.match(
        wrong.detail,
        /^The registration check of VIM wrong-pw failed at http:\/\/127\.0\.0\.1:5000\/v3: Keystone token request failed \(HTTP 401\): The request you have made requires authentication\..* Nothing was registered\. Correct the credentials, project or domain names and try again\.$/,
      );
      const project = await apiError(
        registerCheckedVim(
          deps,
          vim(
            { ...cloud.admin, accessInfo: { ...cloud.admin.accessInfo, project: 'no-such-project' } },
            'no-project',
          ),
        ),
      );
      assert.equal(project.status, 422);
      assert.match(project.detail, /project no-such-project in domain Default/);
      assert.ok(!(await names()).some((n) => n === 'wrong-pw' || n === 'no-project'));
    });

    test('an endpoint that does not answer, or an untrusted certificate is 502, an address outbound.allow refuses 422, nothing stored', async () => {
      const deps = depsWith(LOOPBACK);
      const closed = await apiError(
        registerCheckedVim(
          deps,
          vim({ ...cloud.admin, interfaceInfo: { endpoint: 'http://127.0.0.1:1/v3' } }, 'closed'),
        ),
      );
      assert.equal(closed.status, 502);
      assert.match(closed.detail, /ECONNREFUSED.* Nothing was registered\. Check the auth URL/);
      const tls = await untrustedHttps();
      try {
        const untrusted = await apiError(
          registerCheckedVim(
            deps,
            vim({ ...cloud.admin, interfaceInfo: { endpoint: tls.url } }, 'untrusted'),
          ),
        );
        assert.equal(untrusted.status, 502);
        assert.match(
          untrusted.detail,
          /TLS connection .* failed \(.*\): the VIM's certificate is not trusted/,
        );
      } finally {
        await tls.close();
      }
      // Bosun's own outbound policy refuses before anything is sent: the request must change.
      const refused = await apiError(registerCheckedVim(depsWith([]), vim(cloud.admin, 'not-allowed')));
      assert.equal(refused.status, 422);
      assert.match(
        refused.detail,
        /refusing to call 127\.0\.0\.1, a loopback address; if Bosun may call it, add it to outbound\.allow/,
      );
      const stored = await names();
      assert.ok(!stored.some((n) => ['closed', 'untrusted', 'not-allowed'].includes(n)));
    });
  });
}

/**
 * The registration check on a real database (SQLite and PostgreSQL): a VIM is stored only once
 * its driver described it with the credentials given, keeping the zones it showed; a VIM that
 * refuses is 422 and one that cannot be reached 502, each saying what to fix, and nothing is
 * stored or changed; a driver that cannot describe registers unchecked. The failing VIMs here are
 * describers that throw what the OpenStack client throws (its real Keystone failures are tested
 * against mini-openstack in test/vims/openstack/).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config/load.ts';
import { SealedBox } from '../../src/security/sealed-box.ts';
import { ApiError } from '../../src/sol/problem.ts';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import {
  describeRegisteredVim,
  registerCheckedVim,
  updateCheckedVim,
} from '../../src/vims/checked-registry.ts';
import { InfraError, type VimConnection } from '../../src/vims/contract.ts';
import type { VimDescription } from '../../src/vims/description.ts';
import { VimDriverTable } from '../../src/vims/drivers/index.ts';
import { createSimDriver } from '../../src/vims/drivers/sim/driver.ts';
import { listVims, openVim } from '../../src/vims/registry.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';

const CHECKED = 'TEST.CHECKED.V1';
const UNCHECKED = 'TEST.UNCHECKED.V1';
const PASSWORD = 'right-password';
const DESCRIPTION: VimDescription = {
  zones: [
    { name: 'az1', hosts: [{ name: 'h1', up: true, vcpus: 10, vcpusUsed: 2, ramMb: 8192, ramMbUsed: 1024 }] },
    { name: 'az2', hosts: [] },
  ],
};

/** A VIM that answers only to the right password at its own endpoint, like Keystone would. */
async function fakeKeystone(vim: VimConnection): Promise<VimDescription> {
  const endpoint = vim.interfaceInfo?.endpoint;
  if (endpoint === 'https://down.example/v3') {
    throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 192.0.2.1:443') });
  }
  if (endpoint === 'https://slow.example/v3') {
    throw new InfraError('VIM_UNAVAILABLE', 'Keystone POST /v3/auth/tokens: no answer in 10 s');
  }
  if (vim.accessInfo?.password !== PASSWORD) {
    throw new InfraError(
      'INVALID_REQUEST',
      'Keystone POST /v3/auth/tokens failed (HTTP 401): The request you have made requires authentication',
      { service: 'identity', status: 401 },
    );
  }
  return DESCRIPTION;
}

const lab = (name: string, endpoint = 'https://keystone.example/v3', password = PASSWORD) => ({
  projectId: 'tenant-a',
  name,
  vimType: CHECKED,
  interfaceInfo: { endpoint, ssl_ca_cert: '-----BEGIN CERTIFICATE-----' },
  accessInfo: { username: 'nfv', password, project: 'nfv' },
});

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
  describe(`registration check (${dialect})`, () => {
    let db: Database;
    let deps: { db: Database; box: SealedBox; drivers: VimDriverTable };
    before(async () => {
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 4 });
      await migrate(db);
      const driver = createSimDriver({ db, sim: loadConfig({ env: {} }).sim });
      const drivers = new VimDriverTable([
        { vimTypes: [CHECKED], driver, describe: fakeKeystone },
        { vimTypes: [UNCHECKED], driver },
      ]);
      deps = { db, box: new SealedBox(randomBytes(32)), drivers };
    });
    after(() => db.close());

    test('a VIM that answers is registered with the zones it showed', async () => {
      const { record, description } = await registerCheckedVim(deps, lab('good'));
      assert.deepEqual(description, DESCRIPTION);
      assert.deepEqual(record.zones, ['az1', 'az2']);
      assert.deepEqual(
        await describeRegisteredVim(deps, record.id),
        DESCRIPTION,
        'described with the stored credentials',
      );
    });

    test('a VIM that refuses the credentials is 422 with its reason, and nothing is stored', async () => {
      const refused = await apiError(registerCheckedVim(deps, lab('wrong', undefined, 'wrong-password')));
      assert.equal(refused.status, 422);
      assert.equal(
        refused.detail,
        'The registration check of VIM wrong failed at https://keystone.example/v3: Keystone POST /v3/auth/tokens ' +
          'failed (HTTP 401): The request you have made requires authentication. Nothing was registered. ' +
          'Correct the credentials, project or domain names and try again.',
      );
      assert.equal(refused.extensions.vimCheck, 'REFUSED');
      assert.ok(!(await listVims(db)).some((v) => v.name === 'wrong'));
    });

    test('a VIM that cannot be reached is 502 naming the cause, and nothing is stored', async () => {
      const down = await apiError(registerCheckedVim(deps, lab('down', 'https://down.example/v3')));
      assert.equal(down.status, 502);
      assert.match(
        down.detail,
        /at https:\/\/down\.example\/v3: fetch failed: connect ECONNREFUSED 192\.0\.2\.1:443\./,
      );
      assert.match(down.detail, /Nothing was registered\. Check the auth URL, that Bosun may reach it/);
      const slow = await apiError(registerCheckedVim(deps, lab('slow', 'https://slow.example/v3')));
      assert.equal(slow.status, 502);
      assert.equal(slow.extensions.infraErrorCode, 'VIM_UNAVAILABLE');
      const names = (await listVims(db)).map((v) => v.name);
      assert.ok(!names.includes('down') && !names.includes('slow'));
    });

    test('new credentials are checked before they replace the old ones', async () => {
      const { record } = await registerCheckedVim(deps, lab('rotating'));
      const current = await openVim(db, deps.box, record.id);
      assert.ok(current);
      const refused = await apiError(
        updateCheckedVim(deps, current, {
          accessInfo: { username: 'nfv', password: 'typo', project: 'nfv' },
        }),
      );
      assert.equal(refused.status, 422);
      assert.match(
        refused.detail,
        /^The registration check of VIM rotating with its new connection failed .* Nothing was changed\./,
      );
      assert.equal((await openVim(db, deps.box, record.id))?.accessInfo?.password, PASSWORD, 'kept');
      const renamed = await updateCheckedVim(deps, current, {
        name: 'rotated',
        accessInfo: { username: 'nfv2', password: PASSWORD, project: 'nfv' },
      });
      assert.equal(renamed?.record.name, 'rotated');
      assert.ok(renamed?.record.updatedAt);
      const opened = await openVim(db, deps.box, record.id);
      assert.equal(opened?.accessInfo?.username, 'nfv2');
      assert.deepEqual(
        opened?.interfaceInfo,
        lab('x').interfaceInfo,
        'the interfaceInfo (its sealed CA bundle too) is kept when only accessInfo changes',
      );
    });

    test('a driver that cannot describe its VIM registers it unchecked', async () => {
      const { record, description } = await registerCheckedVim(deps, {
        ...lab('unchecked'),
        vimType: UNCHECKED,
      });
      assert.equal(description, undefined);
      assert.equal(record.zones, undefined);
      assert.equal(await describeRegisteredVim(deps, record.id), undefined);
      assert.equal((await apiError(describeRegisteredVim(deps, 'no-such-vim'))).status, 404);
    });
  });
}

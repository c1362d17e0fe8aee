/**
 * `bosun vim register --type openstack` and `bosun vim show` as real subprocesses against a real
 * server and the real mini-openstack: the password read from a file, the VIM checked against
 * Keystone and Nova before it is stored (the zones printed), a wrong password refused with
 * Keystone's answer and nothing stored, and show listing every compute host with its free vCPU
 * and RAM read live from Nova.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { type MiniOpenStack, miniOpenStack, testPrefix } from '../support/mini-openstack.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const exec = promisify(execFile);

describe('bosun vim against mini-openstack', () => {
  let server: TestServer;
  let cloud: MiniOpenStack;
  const made: string[] = [];

  async function bosun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    try {
      const r = await exec(BOSUN, args, { env: { PATH: process.env.PATH ?? '', BOSUN_URL: server.url } });
      return { code: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  before(async () => {
    cloud = await miniOpenStack();
    server = await startTestServer('sqlite', { config: { outbound: { allow: ['127.0.0.1', '::1'] } } });
  });
  after(async () => {
    for (const id of made) await bosun(['vim', 'delete', id]);
    await server.close();
  });

  test('register checks Keystone and Nova first; show lists every host with its free capacity', async () => {
    const dir = tempDir('bosun-vim-os-');
    const right = join(dir, 'right');
    const wrong = join(dir, 'wrong');
    writeFileSync(right, `${cloud.env.OS_PASSWORD}\n`);
    writeFileSync(wrong, 'not-the-password\n');
    const name = testPrefix('cli-vim');
    const flags = ['--type', 'openstack', '--auth-url', cloud.env.OS_AUTH_URL, '--username', 'admin'];
    const project = ['--project-name', 'admin', '--region', cloud.env.OS_REGION_NAME ?? 'RegionOne'];

    const refused = await bosun([
      'vim',
      'register',
      '--name',
      `${name}-wrong`,
      ...flags,
      ...project,
      '--password-file',
      wrong,
    ]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^bosun: error: 422 Unprocessable Entity: The registration check of VIM .*-wrong failed at http:\/\/127\.0\.0\.1:5000\/v3: Keystone token request failed \(HTTP 401\)/,
    );
    assert.match(refused.stderr, /Nothing was registered\./);
    assert.doesNotMatch((await bosun(['vim', 'list'])).stdout, /-wrong/);

    const ok = await bosun([
      'vim',
      'register',
      '--name',
      name,
      ...flags,
      ...project,
      '--password-file',
      right,
      '-q',
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    const id = ok.stdout.trim();
    made.push(id);
    const shown = await bosun(['vim', 'show', id]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /vimType\s+ETSINFV\.OPENSTACK_KEYSTONE\.V_3/);
    assert.match(shown.stdout, /zones\s+az1, az2/);
    for (const [zone, host] of [
      ['az1', 'compute1'],
      ['az1', 'compute2'],
      ['az2', 'compute3'],
    ]) {
      assert.match(shown.stdout, new RegExp(`${zone}\\s+${host}\\s+up\\s+\\d+/10\\s+\\d+/8192`));
    }
    assert.ok(!shown.stdout.includes(cloud.env.OS_PASSWORD), 'the password is never shown');
  });
});

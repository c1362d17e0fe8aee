/**
 * `bosun subscription list|show|test|redeliver|delete --api …`: the real command against a real
 * server, table and --json output, errors as one line on stderr with a non-zero exit.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import {
  type AdminStatus,
  deliveryServer,
  enqueueFor,
  type Receiver,
  subscribe,
  waitStatus,
} from './support.ts';

const BOSUN = join(import.meta.dirname, '../../../bin/bosun');

function bosun(args: string[], url: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('BOSUN_')) env[k] = v;
  env.BOSUN_URL = url;
  return new Promise((resolve) => {
    execFile(BOSUN, args, { env }, (err, stdout, stderr) => {
      const code = err ? (err as { code?: number }).code : 0;
      resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
    });
  });
}

describe('bosun subscription', () => {
  const server = deliveryServer('sqlite');
  let receiver: Receiver;
  let refuse = true;
  const ids: Record<string, string> = {};
  before(async () => {
    receiver = await server.receiver((req) => ({ status: refuse && req.path.startsWith('/fm') ? 500 : 204 }));
    ids.pkg = await subscribe(server, `${receiver.url}/pkg`, { api: 'vnfpkgm', major: 'v2' });
    ids.fm = await subscribe(server, `${receiver.url}/fm`, { api: 'vnffm', major: 'v1' });
    await enqueueFor(server.context.db, ids.pkg, 2, { api: 'vnfpkgm', major: 'v2' });
    await enqueueFor(server.context.db, ids.fm, 1, { api: 'vnffm', major: 'v1' });
    await waitStatus(server, ids.fm, (s) => s.delivery.dead === 1, 'fm dead');
    await waitStatus(server, ids.pkg, (s) => s.delivery.delivered === 2, 'pkg delivered');
  });

  test('list: a table of every API, or one API, or JSON', async () => {
    const table = await bosun(['subscription', 'list'], server.url);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trim().split('\n');
    assert.match(
      lines[0],
      /^id\s+api\s+project\s+callbackUri\s+delivered\s+pending\s+failing\s+dead\s+lastError$/,
    );
    assert.equal(lines.length, 4);
    const fmLine = lines.find((l) => l.startsWith(ids.fm));
    assert.match(fmLine ?? '', /vnffm\/v1\s+default\s+\S+\/fm\s+0\s+0\s+0\s+1\s+POST \S+ answered HTTP 500$/);
    const json = await bosun(['subscription', 'list', '--api', 'vnfpkgm', '--json'], server.url);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout) as AdminStatus[];
    assert.deepEqual(
      listed.map((s) => [s.id, s.api, s.major, s.delivery.delivered]),
      [[ids.pkg, 'vnfpkgm', 'v2', 2]],
    );
  });

  test('show, test, redeliver, delete', async () => {
    const show = await bosun(['subscription', 'show', ids.fm, '--api', 'vnffm'], server.url);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /^dead\s+1$/m);
    assert.match(show.stdout, /^lastError\s+POST \S+\/fm answered HTTP 500$/m);

    const passed = await bosun(['subscription', 'test', ids.pkg], server.url);
    assert.equal(passed.code, 0, passed.stderr);
    assert.equal(passed.stdout, `callback ${receiver.url}/pkg answered the test with 204\n`);
    const failed = await bosun(['subscription', 'test', ids.fm], server.url);
    assert.equal(failed.code, 1);
    assert.match(
      failed.stderr,
      /the callback test failed: GET \S+\/fm answered HTTP 500; SOL013 requires 204 No Content/,
    );
    assert.equal(failed.stderr.trim().split('\n').length, 1);

    refuse = false;
    const redeliver = await bosun(['subscription', 'redeliver', ids.fm, '--json'], server.url);
    assert.equal(redeliver.code, 0, redeliver.stderr);
    assert.deepEqual(JSON.parse(redeliver.stdout), { id: ids.fm, redelivered: 1 });
    await waitStatus(
      server,
      ids.fm,
      (s) => s.delivery.delivered === 1 && s.delivery.dead === 0,
      'redelivered',
    );

    const wrongApi = await bosun(['subscription', 'delete', ids.fm, '--api', 'vnflcm'], server.url);
    assert.equal(wrongApi.code, 1);
    assert.match(wrongApi.stderr, /does not exist in the vnflcm API/);
    const deleted = await bosun(['subscription', 'delete', ids.fm, '--api', 'vnffm'], server.url);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, `deleted subscription ${ids.fm}\n`);
    const gone = await bosun(['subscription', 'show', ids.fm], server.url);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /404|does not exist/);

    const badApi = await bosun(['subscription', 'list', '--api', 'vnfx'], server.url);
    assert.equal(badApi.code, 1);
    assert.match(badApi.stderr, /--api must be one of vnfpkgm, vnflcm, vnffm, vnfpm, got 'vnfx'/);
  });
});

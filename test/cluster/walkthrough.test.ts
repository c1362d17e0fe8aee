/**
 * The README's "Running as a cluster" walk-through, run as written: deploy/local-cluster.sh
 * starts PostgreSQL, moto's S3, three replicas and HAProxy (twice: `start` is idempotent), `demo`
 * onboards a Tacker sample and instantiates it through the load balancer while a replica is
 * killed, and the operation completes on another; `stop` leaves no process and no folder.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { freePort } from '../support/cluster.ts';
import { tempDir } from '../support/temp.ts';

const SCRIPT = new URL('../../deploy/local-cluster.sh', import.meta.url).pathname;

/** Six consecutive free ports (PostgreSQL, S3, HAProxy, three replicas), found by probing. */
async function portBlock(): Promise<number> {
  for (;;) {
    const base = await freePort();
    if (base + 5 > 65535) continue;
    const free = await Promise.all(
      [1, 2, 3, 4, 5].map((i) =>
        import('node:net').then(
          ({ createServer }) =>
            new Promise<boolean>((resolve) => {
              const s = createServer();
              s.once('error', () => resolve(false));
              s.listen(base + i, '127.0.0.1', () => s.close(() => resolve(true)));
            }),
        ),
      ),
    );
    if (free.every(Boolean)) return base;
  }
}

test('the README walk-through: a cluster on one machine survives a killed replica', {
  timeout: 300_000,
}, async () => {
  const parent = tempDir('bosun-walkthrough-');
  // PostgreSQL runs as its own user when the tests run as root: it must reach the folder.
  chmodSync(parent, 0o755);
  const dir = join(parent, 'cluster');
  const env = {
    ...process.env,
    LOCAL_CLUSTER_DIR: dir,
    LOCAL_CLUSTER_PORT: String(await portBlock()),
  };
  const run = (command: string) => promisify(execFile)('bash', [SCRIPT, command], { env, timeout: 240_000 });
  const pids = () =>
    ['haproxy', 'replica1', 'replica2', 'replica3', 'moto']
      .map((f) => join(dir, `${f}.pid`))
      .filter(existsSync)
      .map((f) => Number(readFileSync(f, 'utf8')));
  let started: number[] = [];
  try {
    assert.match((await run('start')).stdout, /Bosun cluster at http:\/\/127\.0\.0\.1:\d+/);
    started = pids();
    assert.match((await run('start')).stdout, /Bosun cluster at/, 'start again: nothing new');
    assert.deepEqual(pids(), started, 'the second start started nothing');
    const demo = (await run('demo')).stdout;
    assert.match(demo, /ONBOARDED/);
    assert.match(demo, /killed replica 1/);
    assert.match(demo, /op occ \S+ COMPLETED$/m);
  } finally {
    await run('stop').catch((err: Error) => console.log(`stop: ${err.message}`));
  }
  assert.equal(existsSync(dir), false, 'stop removed the folder');
  for (const pid of started) {
    assert.throws(() => process.kill(pid, 0), `process ${pid} is gone`);
  }
});

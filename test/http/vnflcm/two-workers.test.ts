/**
 * A cluster on one PostgreSQL: an API-only server and two worker processes. Many operations at
 * once are shared between the workers (each takes only `lcm.concurrency` at a time) and no op occ
 * is ever run twice: every hook of every operation ran exactly once, and every op occ was claimed
 * exactly once.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { onboard } from '../vnfpkgm/support.ts';
import { createInstance, INSTANTIATE, MAIN_SAMPLE, startTask, waitOpOcc } from './lcm-support.ts';
import { kill9, newEnv, serve, stop } from './processes.ts';
import { sampleVariant } from './sample-package.ts';

/** Logs `<hook> <op occ id> <worker pid>` and takes a little time, so that one worker cannot take everything. */
const SCRIPT = `import json, os, sys, time
data = json.load(sys.stdin)
p = (data.get('request') or {}).get('additionalParams') or {}
with open(p['hookLog'], 'a') as f:
    f.write('%s %s %d\\n' % (data['operation'], data['grantRequest']['vnfLcmOpOccId'], os.getppid()))
time.sleep(0.2)
`;

const N = 12;

describe('two workers on one PostgreSQL', () => {
  test(`${N} instantiations: shared by both workers, none run twice`, async () => {
    const env = await newEnv('postgres', { BOSUN_LCM_CONCURRENCY: '3' });
    const api = await serve(env, 'api');
    const workers = await Promise.all([serve(env, 'worker'), serve(env, 'worker')]);
    try {
      const variant = await sampleVariant(MAIN_SAMPLE, {
        vnfdId: 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21',
        files: { 'Scripts/sample_script.py': SCRIPT },
      });
      const pkg = await onboard(api.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      const log = join(mkdtempSync(join(tmpdir(), 'bosun-2w-')), 'hooks.log');
      const instances = await Promise.all(
        Array.from({ length: N }, () => createInstance(api.url, variant.vnfdId)),
      );
      const ids = await Promise.all(
        instances.map((i) =>
          startTask(api.url, i.id, 'instantiate', { ...INSTANTIATE, additionalParams: { hookLog: log } }),
        ),
      );
      const done = await Promise.all(ids.map((id) => waitOpOcc(api.url, id, undefined, 60000)));
      for (const op of done) assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));

      const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
      const seen = new Map<string, number>();
      const pids = new Set<string>();
      for (const line of lines) {
        const [hook, opOcc, pid] = line.split(' ');
        seen.set(`${hook} ${opOcc}`, (seen.get(`${hook} ${opOcc}`) ?? 0) + 1);
        pids.add(pid);
      }
      for (const id of ids) {
        assert.equal(seen.get(`instantiate_start ${id}`), 1, `instantiate_start of ${id}`);
        assert.equal(seen.get(`instantiate_end ${id}`), 1, `instantiate_end of ${id}`);
      }
      assert.equal(lines.length, 2 * N);
      const workerPids = new Set(workers.map((w) => String(w.child.pid)));
      assert.deepEqual(
        [...pids].sort(),
        [...workerPids].sort(),
        'both workers ran operations, the API server none',
      );

      const client = new pg.Client({ connectionString: env.databaseUrl });
      await client.connect();
      try {
        const rows = await client.query('select attempts from vnf_lcm_op_occs_v2');
        assert.equal(rows.rows.length, N);
        for (const row of rows.rows) assert.equal(Number(row.attempts), 1);
      } finally {
        await client.end();
      }
    } finally {
      await stop(api.child);
      for (const w of workers) await kill9(w.child);
    }
  });
});

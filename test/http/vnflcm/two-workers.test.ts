/**
 * A cluster on one PostgreSQL: an API-only server and two worker processes. Many operations at
 * once are shared between the workers (each takes only `lcm.concurrency` at a time) and no op occ
 * is ever run twice: every hook of every operation ran exactly once, and every op occ was claimed
 * exactly once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import pg from 'pg';
import { onboard } from '../vnfpkgm/support.ts';
import { hookPackage, PEER_PY, startHookPeer } from './hook-package.ts';
import { createInstance, INSTANTIATE, startTask, waitOpOcc } from './lcm-support.ts';
import { kill9, newEnv, type Served, serve, stop } from './processes.ts';

/** Reports each run to the peer under its op occ and takes a little time, so that one worker cannot take everything. */
const SCRIPT = `import json, os, sys, time
${PEER_PY}
data = json.load(sys.stdin)
p = (data.get('request') or {}).get('additionalParams') or {}
peer_call(p, '/calls/' + data['vnfLcmOpOccId'], {'op': data['operation']})
time.sleep(0.2)
`;

/** Op occs whose steps a server process ran, from its debug log. */
const opOccsRunBy = (served: Served) =>
  new Set(
    served
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"LCM step done"'))
      .map((l) => (JSON.parse(l) as { vnfLcmOpOccId: string }).vnfLcmOpOccId),
  );

const N = 12;

describe('two workers on one PostgreSQL', () => {
  test(`${N} instantiations: shared by both workers, none run twice`, async () => {
    const env = await newEnv('postgres', { BOSUN_LCM_CONCURRENCY: '3', BOSUN_LOG_LEVEL: 'debug' });
    const peer = await startHookPeer();
    const api = await serve(env, 'api');
    const workers = await Promise.all([serve(env, 'worker'), serve(env, 'worker')]);
    try {
      const variant = await hookPackage(SCRIPT);
      const pkg = await onboard(api.url, variant.zip);
      assert.equal(pkg.onboardingState, 'ONBOARDED');
      const instances = await Promise.all(
        Array.from({ length: N }, () => createInstance(api.url, variant.vnfdId)),
      );
      const ids = await Promise.all(
        instances.map((i) =>
          startTask(api.url, i.id, 'instantiate', { ...INSTANTIATE, additionalParams: { peer: peer.url } }),
        ),
      );
      const done = await Promise.all(ids.map((id) => waitOpOcc(api.url, id, undefined, 60000)));
      for (const op of done) assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));

      for (const id of ids) {
        assert.deepEqual(
          peer.calls(id).map((c) => c.op),
          ['instantiate_start', 'instantiate_end'],
          `the hooks of ${id}, each once`,
        );
      }
      // Log lines are written asynchronously: wait until every op occ's steps are in a log.
      const logged = () => new Set(workers.flatMap((w) => [...opOccsRunBy(w)]));
      for (let waited = 0; ids.some((id) => !logged().has(id)) && waited < 10_000; waited += 50) {
        await setTimeout(50);
      }
      const [first, second] = workers.map(opOccsRunBy);
      assert.ok(first.size > 0 && second.size > 0, 'both workers ran operations');
      assert.equal(first.size + second.size, N, 'no operation ran on both workers');
      assert.deepEqual(new Set([...first, ...second]), new Set(ids));
      assert.equal(opOccsRunBy(api).size, 0, 'the API server ran none');

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
      await peer.close();
    }
  });
});

/**
 * PostgreSQL stopped for 30 s under a running cluster, then started again. While it is down every
 * replica answers /readyz 503, an API replica answers its requests 503 ProblemDetails with
 * Retry-After (the "database unreachable" class of errors, not a 500 and not a hang), and so does
 * HAProxy once no replica is ready. When it is back, the same processes — none restarted — are
 * ready again, new LCM operations complete, and the op occ that was in flight during the outage
 * ends correctly: COMPLETED, or — when its worker's lease ran out meanwhile — as after a worker's
 * death (FAILED_TEMP with the error and then retried to COMPLETED, or ROLLED_BACK when nothing had
 * changed yet, and then started again to COMPLETED).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTempPostgres, type TempPostgres } from '../../scripts/postgres.ts';
import { MAIN_SAMPLE } from '../http/vnflcm/lcm-support.ts';
import { onboard, sample } from '../http/vnfpkgm/support.ts';
import { type Cluster, startCluster } from '../support/cluster.ts';

const OUTAGE_MS = 30_000;
const LCM_H = { Version: '2.0.0', 'content-type': 'application/json' };

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A request that must answer (a hang fails it after 20 s). */
async function call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(base + path, {
    method,
    headers: LCM_H,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} };
}

const assertUnavailable = (a: Answer, what: string) => {
  assert.equal(a.status, 503, `${what}: ${JSON.stringify(a.body)}`);
  assert.match(a.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
  assert.equal(a.body.status, 503, what);
  assert.ok(Number(a.headers.get('retry-after')) > 0, `${what}: Retry-After`);
};

async function finish(base: string, id: string): Promise<Answer> {
  for (let retries = 0; ; ) {
    let op: Answer;
    do {
      await sleep(200);
      op = await call(base, 'GET', `/vnflcm/v2/vnf_lcm_op_occs/${id}`);
    } while (
      !['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'].includes(op.body.operationState as string)
    );
    if (op.body.operationState !== 'FAILED_TEMP' || retries++ > 3) return op;
    assert.ok((op.body.error as { detail?: string })?.detail, 'a FAILED_TEMP op occ says why');
    assert.equal((await call(base, 'POST', `/vnflcm/v2/vnf_lcm_op_occs/${id}/retry`)).status, 202);
  }
}

let pg: TempPostgres;
let cluster: Cluster;

before(async () => {
  pg = await startTempPostgres();
  cluster = await startCluster({
    databaseUrl: pg.url,
    apis: 2,
    workers: 1,
    vars: { BOSUN_SIM_OPERATION_DELAY_MS: '500' },
  });
});

after(async () => {
  await cluster?.stop();
  pg?.stop();
});

test('PostgreSQL down for 30 s: 503 with Retry-After everywhere, then everything resumes without a restart', {
  timeout: 300_000,
}, async () => {
  try {
    await outageScenario();
  } catch (err) {
    console.log(cluster.outputs().slice(-30_000));
    throw err;
  }
});

async function outageScenario() {
  const pkg = await onboard(cluster.url, sample(MAIN_SAMPLE));
  const vnfdId = pkg.vnfdId as string;
  const inst = await call(cluster.url, 'POST', '/vnflcm/v2/vnf_instances', { vnfdId });
  assert.equal(inst.status, 201);
  const started = await call(cluster.url, 'POST', `/vnflcm/v2/vnf_instances/${inst.body.id}/instantiate`, {
    flavourId: 'simple',
  });
  assert.equal(started.status, 202);
  const inFlight = (started.headers.get('location') ?? '').split('/').pop() as string;
  const pids = cluster.replicas.map((r) => r.served.child.pid);

  pg.pause();
  const down = Date.now();
  for (const r of cluster.replicas)
    assertUnavailable(await call(r.served.url, 'GET', '/readyz'), `${r.name} /readyz`);
  const api = cluster.replicas.find((r) => r.role === 'api');
  assert.ok(api);
  assertUnavailable(
    await call(api.served.url, 'GET', '/vnflcm/v2/vnf_instances'),
    'a list on an API replica',
  );
  assertUnavailable(
    await call(api.served.url, 'POST', '/vnflcm/v2/vnf_instances', { vnfdId }),
    'a create on an API replica',
  );
  // HAProxy takes the replicas out within two checks; then it answers for them.
  let lb: Answer;
  do {
    await sleep(250);
    lb = await call(cluster.url, 'GET', '/vnflcm/v2/vnf_instances');
  } while (lb.status === 200 && Date.now() - down < 10_000);
  assertUnavailable(lb, 'a list through HAProxy');
  await sleep(Math.max(0, OUTAGE_MS - (Date.now() - down)));
  assertUnavailable(
    await call(api.served.url, 'GET', `/vnflcm/v2/vnf_lcm_op_occs/${inFlight}`),
    'still down',
  );
  pg.resume();

  await cluster.allUp(30_000);
  assert.deepEqual(
    cluster.replicas.map((r) => r.served.child.pid),
    pids,
    'the same processes serve again',
  );
  assert.ok(cluster.replicas.every((r) => r.served.child.exitCode === null));
  // Its worker's lease ran out during the outage: it ended as after a worker's death — COMPLETED
  // if the worker kept it, FAILED_TEMP (retried above) or, when nothing had changed yet,
  // ROLLED_BACK with the reason, and then instantiating again completes.
  const during = await finish(cluster.url, inFlight);
  if (during.body.operationState === 'ROLLED_BACK') {
    assert.match((during.body.error as { detail: string }).detail, /lease expired/);
    const again = await call(cluster.url, 'POST', `/vnflcm/v2/vnf_instances/${inst.body.id}/instantiate`, {
      flavourId: 'simple',
    });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    const redone = await finish(
      cluster.url,
      (again.headers.get('location') ?? '').split('/').pop() as string,
    );
    assert.equal(redone.body.operationState, 'COMPLETED', JSON.stringify(redone.body.error));
  } else {
    assert.equal(during.body.operationState, 'COMPLETED', JSON.stringify(during.body.error));
  }

  const after = await call(cluster.url, 'POST', '/vnflcm/v2/vnf_instances', { vnfdId });
  assert.equal(after.status, 201);
  const next = await call(cluster.url, 'POST', `/vnflcm/v2/vnf_instances/${after.body.id}/instantiate`, {
    flavourId: 'simple',
  });
  assert.equal(next.status, 202);
  const done = await finish(cluster.url, (next.headers.get('location') ?? '').split('/').pop() as string);
  assert.equal(done.body.operationState, 'COMPLETED', JSON.stringify(done.body.error));
}

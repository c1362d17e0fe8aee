/**
 * The Alertmanager receiver's benchmark: a webhook batch of 1,000 firing alerts (distinct
 * fingerprints, over the 10 VNFCs of one instance) POSTed to a real `bosun serve` with 5 FM
 * subscriptions; the answer comes once every alarm is committed and every notification is in the
 * outbox (one transaction) — target under 1 s, and on PostgreSQL no slower than on SQLite. Rounds
 * of new alerts, then the same batch resolved (1,000 clears). Each row shows the 1-minute load
 * average when it was measured: the machine may be shared. On SQLite and PostgreSQL (BOSUN_BENCH_FM_DATABASES, default `sqlite,postgres`;
 * PostgreSQL is a temporary cluster, or BOSUN_TEST_PG_URL). BOSUN_BENCH_FM_ROUNDS (default 5).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { startTempPostgres } from '../scripts/postgres.ts';
import { LCM_V2 } from '../src/lcm/store.ts';
import { openDatabase } from '../src/store/db/database.ts';
import { freshDatabaseUrl, type TestDialect } from '../test/support/databases.ts';
import { startBosun } from './support/bosun-process.ts';
import { printRows, type Row } from './support/report.ts';

const ROUNDS = Number(process.env.BOSUN_BENCH_FM_ROUNDS ?? '5');
const BATCH = 1000;
const VNFCS = 10;
const databases = (process.env.BOSUN_BENCH_FM_DATABASES ?? 'sqlite,postgres').split(',') as TestDialect[];
const TOKEN = randomBytes(24).toString('hex');

/** An INSTANTIATED instance with VNFCS VNFCs, written straight into the v2 table. */
async function seedInstance(url: string): Promise<{ id: string; servers: string[] }> {
  const db = openDatabase({ url, poolSize: 1 });
  const id = randomUUID();
  const servers = Array.from({ length: VNFCS }, () => randomUUID());
  const now = new Date().toISOString();
  const vnfcs = servers.map((serverId, i) => ({
    id: `vnfc-${i}`,
    vduId: 'VDU1',
    computeResource: { resourceId: serverId, vimLevelResourceType: 'OS::Nova::Server' },
  }));
  await LCM_V2.insertInstance(db.kysely, {
    id,
    projectId: 'default',
    vnfdId: 'bench-vnfd',
    vnfPkgId: randomUUID(),
    vnfProvider: 'Bench',
    vnfProductName: 'Bench VNF',
    vnfSoftwareVersion: '1.0',
    vnfdVersion: '1.0',
    instantiationState: 'INSTANTIATED',
    instantiatedVnfInfo: {
      flavourId: 'simple',
      vnfState: 'STARTED',
      extCpInfo: [],
      vnfcResourceInfo: vnfcs,
      vnfcInfo: vnfcs.map((v) => ({
        id: `VDU1-${v.id}`,
        vduId: 'VDU1',
        vnfcResourceInfoId: v.id,
        vnfcState: 'STARTED',
      })),
    },
    vimConnectionInfo: {},
    vnfConfigurableProperties: {},
    metadata: {},
    extensions: {},
    createdAt: now,
    updatedAt: now,
    version: 1,
  });
  await db.close();
  return { id, servers };
}

const alerts = (
  instanceId: string,
  servers: string[],
  status: 'firing' | 'resolved',
  fingerprints: string[],
) =>
  fingerprints.map((fingerprint, i) => ({
    status,
    labels: {
      alertname: 'ServerDown',
      vnf_instance_id: instanceId,
      server_id: servers[i % servers.length],
      perceived_severity: 'CRITICAL',
    },
    annotations: { probable_cause: 'server down' },
    startsAt: new Date().toISOString(),
    endsAt: status === 'resolved' ? new Date().toISOString() : '0001-01-01T00:00:00Z',
    fingerprint,
  }));

async function post(url: string, batch: unknown[]): Promise<{ ms: number; answer: Record<string, unknown> }> {
  const body = JSON.stringify({ version: '4', status: 'firing', receiver: 'bosun', alerts: batch });
  const start = performance.now();
  const res = await fetch(`${url}/alert`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body,
  });
  const answer = (await res.json()) as Record<string, unknown>;
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`POST /alert: ${res.status} ${JSON.stringify(answer)}`);
  return { ms, answer };
}

interface Medians {
  raise: number;
  clear: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => `load ${loadavg()[0].toFixed(2)}`;

async function run(dialect: TestDialect, databaseUrl: string): Promise<{ rows: Row[]; medians: Medians }> {
  const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callback = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const bosun = await startBosun({
    BOSUN_DATABASE_URL: databaseUrl,
    BOSUN_SECURITY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BOSUN_BLOBS_DIR: `/tmp/bosun-bench-fm-${process.pid}`,
    BOSUN_LOG_LEVEL: 'info',
    BOSUN_LOG_ACCESS_LOG: 'false',
    BOSUN_OUTBOUND_ALLOW: '127.0.0.0/8',
    BOSUN_NOTIFY_CALLBACK_TEST: 'false',
    BOSUN_FM_ALERT_RECEIVERS: JSON.stringify([{ name: 'bench', bearerToken: TOKEN }]),
    BOSUN_FM_HEALTH_INTERVAL_MS: '0',
  });
  try {
    const { id, servers } = await seedInstance(databaseUrl);
    for (let s = 0; s < 5; s++) {
      const res = await fetch(`${bosun.url}/vnffm/v1/subscriptions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', version: '1.3.0' },
        body: JSON.stringify({ callbackUri: `${callback}/fm-${s}` }),
      });
      if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
    }
    const raise: number[] = [];
    const clear: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const fingerprints = Array.from({ length: BATCH }, () => randomBytes(8).toString('hex'));
      const up = await post(bosun.url, alerts(id, servers, 'firing', fingerprints));
      if (up.answer.raised !== BATCH) throw new Error(`raised ${up.answer.raised} of ${BATCH}`);
      raise.push(up.ms);
      const down = await post(bosun.url, alerts(id, servers, 'resolved', fingerprints));
      if (down.answer.cleared !== BATCH) throw new Error(`cleared ${down.answer.cleared} of ${BATCH}`);
      clear.push(down.ms);
    }
    const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
    const under = (xs: number[]) => `target < 1,000 ms: ${median(xs) < 1000 ? 'met' : 'MISSED'}; ${load()}`;
    return {
      medians: { raise: median(raise), clear: median(clear) },
      rows: [
        [`${dialect}: 1,000 firing alerts → 1,000 alarms + 5,000 notifications`, fmt(raise), under(raise)],
        [
          `${dialect}: the same 1,000 resolved → 1,000 clears + 5,000 notifications`,
          fmt(clear),
          under(clear),
        ],
      ],
    };
  } finally {
    await bosun.stop();
    await new Promise((resolve) => receiver.close(resolve));
  }
}

const rows: Row[] = [];
const medians = new Map<TestDialect, Medians>();
let pg: Awaited<ReturnType<typeof startTempPostgres>> | undefined;
try {
  for (const dialect of databases) {
    if (dialect === 'postgres' && !process.env.BOSUN_TEST_PG_URL) {
      pg = await startTempPostgres();
      process.env.BOSUN_TEST_PG_URL = pg.url;
    }
    const result = await run(dialect, await freshDatabaseUrl(dialect));
    rows.push(...result.rows);
    medians.set(dialect, result.medians);
  }
  const lite = medians.get('sqlite');
  const post = medians.get('postgres');
  if (lite && post) {
    for (const kind of ['raise', 'clear'] as const) {
      const ratio = post[kind] / lite[kind];
      rows.push([
        `postgres / sqlite, ${kind === 'raise' ? 'firing' : 'resolved'} batch`,
        `×${ratio.toFixed(2)}`,
        `target: PostgreSQL no slower than SQLite (≤ ×1.00): ${ratio <= 1 ? 'met' : 'MISSED'}`,
      ]);
    }
  }
} finally {
  pg?.stop();
  printRows(`Alertmanager webhook: batches of ${BATCH} alerts, ${ROUNDS} rounds`, rows);
}

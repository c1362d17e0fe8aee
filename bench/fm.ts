/**
 * Fault management benchmarks, each case its own function:
 * 1. the alarm list against a real `bosun serve` (role api) with BOSUN_BENCH_FM_ALARMS alarms
 *    stored (default 100,000, over 100 instances): the first page (100, newest first) plain, by
 *    severity and by instance, at 1 and 10 connections — target: first page p99 < 20 ms;
 * 2. raiseAlarms, the domain's batch: 1,000 new alarms with 5 FM subscriptions in one transaction
 *    (alarms committed and notifications in the outbox), in process.
 * On SQLite and PostgreSQL (BOSUN_BENCH_FM_DATABASES, default `sqlite,postgres`; PostgreSQL is
 * the tests' temporary cluster, or BOSUN_TEST_PG_URL). BOSUN_BENCH_DURATION (s, default 5).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { startTempPostgres } from '../scripts/postgres.ts';
import { type AlarmRecord, raiseAlarms } from '../src/fm/index.ts';
import { alarmToRow } from '../src/fm/store.ts';
import { createSubscription } from '../src/notify/subscription-store.ts';
import { SealedBox } from '../src/security/sealed-box.ts';
import { NodeSqliteDialect } from '../src/store/db/node-sqlite-dialect.ts';
import type { Tables } from '../src/store/db/tables.ts';
import { addInstance, freshDatabase, serverDown } from '../test/fm/support.ts';
import type { TestDialect } from '../test/support/databases.ts';
import { newServerEnv, serveProcess, stop } from '../test/support/processes.ts';
import { printRows, type Row } from './support/report.ts';

const ALARMS = Number(process.env.BOSUN_BENCH_FM_ALARMS ?? '100000');
const INSTANCES = 100;
const duration = Number(process.env.BOSUN_BENCH_DURATION ?? '5');
const databases = (process.env.BOSUN_BENCH_FM_DATABASES ?? 'sqlite,postgres').split(',') as TestDialect[];
const SEVERITIES = ['CRITICAL', 'MAJOR', 'MINOR', 'WARNING', 'INDETERMINATE'] as const;
const log = (line: string) => process.stderr.write(`${line}\n`);

function open(url: string): Kysely<Tables> {
  return url.startsWith('sqlite:')
    ? new Kysely<Tables>({ dialect: new NodeSqliteDialect(url.slice('sqlite:'.length)) })
    : new Kysely<Tables>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
      });
}

/** `n` alarms over INSTANCES instances, one a second back from now, every fifth cleared. */
async function seedAlarms(url: string, n: number): Promise<string[]> {
  const db = open(url);
  const instances = Array.from({ length: INSTANCES }, () => randomUUID());
  const start = Date.now() - n * 1000;
  try {
    for (let i = 0; i < n; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, n - i) }, (_, k) => {
        const at = new Date(start + (i + k) * 1000).toISOString();
        const record: AlarmRecord = {
          id: randomUUID(),
          projectId: 'default',
          fingerprint: `bench-${i + k}`,
          managedObjectId: instances[(i + k) % INSTANCES],
          instanceMajor: 'v2',
          vnfcInstanceIds: [`VDU1-${k % 4}`],
          rootCauseFaultyResource: {
            faultyResource: {
              vimConnectionId: 'sim',
              resourceId: randomUUID(),
              vimLevelResourceType: 'OS::Nova::Server',
            },
            faultyResourceType: 'COMPUTE',
          },
          alarmRaisedTime: at,
          ...((i + k) % 5 === 0 ? { alarmClearedTime: at, alarmChangedTime: at } : {}),
          ackState: 'UNACKNOWLEDGED',
          perceivedSeverity: SEVERITIES[(i + k) % SEVERITIES.length],
          eventTime: at,
          eventType: 'EQUIPMENT_ALARM',
          probableCause: 'server down',
          isRootCause: false,
          correlatedAlarmIds: [],
          faultDetails: ['seeded by the benchmark'],
          version: 1,
        };
        return alarmToRow(record);
      });
      await db.insertInto('alarms').values(rows).execute();
    }
    // What PostgreSQL's autovacuum does after a bulk load, at once: statistics for the planner.
    if (!url.startsWith('sqlite:')) await sql`ANALYZE alarms`.execute(db);
    return instances;
  } finally {
    await db.destroy();
  }
}

async function cannon(url: string, connections: number) {
  const opts = { url, connections, duration, headers: { Version: '1.3.0' } };
  await autocannon({ ...opts, duration: 1 });
  return autocannon(opts);
}

/** 1. The first page of the alarm list with ALARMS stored. */
async function alarmList(dialect: TestDialect, rows: Row[]): Promise<void> {
  const env = await newServerEnv(dialect, 'bosun-fm-bench-');
  const server = await serveProcess(env, 'api', { BOSUN_LOG_ACCESS_LOG: 'false' });
  try {
    log(`${dialect}: seeding ${ALARMS} alarms`);
    const instances = await seedAlarms(env.databaseUrl, ALARMS);
    const cases: [string, string][] = [
      ['', 'newest first'],
      ['?filter=(eq,perceivedSeverity,CRITICAL)', 'CRITICAL only'],
      [`?filter=(eq,managedObjectId,${instances[7]})`, 'one instance'],
    ];
    for (const [query, what] of cases) {
      for (const connections of [1, 10]) {
        const r = await cannon(`${server.url}/vnffm/v1/alarms${query}`, connections);
        const p99 = r.latency.p99;
        rows.push([
          `${dialect}: GET /vnffm/v1/alarms first page, ${what}, ${ALARMS.toLocaleString('en')} stored (${connections} conn)`,
          `p99 ${p99} ms`,
          `p50 ${r.latency.p50} ms, ${r.requests.average.toFixed(0)} req/s, errors ${r.errors + r.non2xx}; target p99 < 20 ms${p99 < 20 ? '' : ' — MISSED'}`,
        ]);
      }
    }
  } finally {
    await stop(server.child);
  }
}

/** 2. raiseAlarms: 1,000 new alarms in one transaction, 5 FM subscriptions each matching. */
async function raiseBatch(dialect: TestDialect, rows: Row[]): Promise<void> {
  const db = await freshDatabase(dialect);
  try {
    const instance = await addInstance(db, { projectId: 'default' });
    const box = new SealedBox(randomBytes(32));
    for (let s = 0; s < 5; s++) {
      await createSubscription(db.kysely, box, {
        projectId: 'default',
        api: 'vnffm',
        major: 'v1',
        callbackUri: `http://127.0.0.1:9/fm-${s}`,
      });
    }
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      const inputs = Array.from({ length: 1000 }, (_, i) =>
        serverDown(instance, { fingerprint: `r${round}-${i}` }),
      );
      const began = performance.now();
      const outcomes = await raiseAlarms(db, inputs);
      times.push(performance.now() - began);
      if (outcomes.some((o) => !o.ok)) throw new Error('the batch refused an input');
    }
    const outbox = await db.kysely
      .selectFrom('notification_outbox')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    times.sort((a, b) => a - b);
    rows.push([
      `${dialect}: raiseAlarms, 1,000 new alarms × 5 subscribers in one transaction (5 rounds)`,
      `median ${times[2].toFixed(0)} ms`,
      `max ${times[4].toFixed(0)} ms; ${Number(outbox.n).toLocaleString('en')} notifications queued in all`,
    ]);
  } finally {
    await db.close();
  }
}

const rows: Row[] = [];
let temporary: Awaited<ReturnType<typeof startTempPostgres>> | undefined;
try {
  for (const dialect of databases) {
    if (dialect === 'postgres' && !process.env.BOSUN_TEST_PG_URL) {
      temporary = await startTempPostgres();
      process.env.BOSUN_TEST_PG_URL = temporary.url;
    }
    await alarmList(dialect, rows);
    await raiseBatch(dialect, rows);
  }
} finally {
  temporary?.stop();
}
printRows('Fault management', rows);

/**
 * The cost of a /metrics scrape with a history stored: a real `bosun serve --role api` whose
 * database holds BOSUN_BENCH_ROWS op occs in each LCM major (default 10,000; 1% queued) and as
 * many outbox notifications (10% pending): the scrape reads each queue's backlog at scrape time,
 * so its latency must follow the backlog, not the history. Scrapes at 1 connection for
 * BOSUN_BENCH_DURATION seconds (default 5), on SQLite and PostgreSQL (BOSUN_BENCH_METRICS_DATABASES,
 * default `sqlite,postgres`); on PostgreSQL it also prints the plan of each backlog query (EXPLAIN),
 * which must read an index, not the table.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { startTempPostgres } from '../scripts/postgres.ts';
import { QUEUES } from '../src/http/ops/cluster-status.ts';
import { NodeSqliteDialect } from '../src/store/db/node-sqlite-dialect.ts';
import type { LcmOpOccsTable, Tables } from '../src/store/db/tables.ts';
import type { TestDialect } from '../test/support/databases.ts';
import { newServerEnv, serveProcess, stop } from '../test/support/processes.ts';
import { printRows, type Row } from './support/report.ts';

const ROWS = Number(process.env.BOSUN_BENCH_ROWS ?? '10000');
const duration = Number(process.env.BOSUN_BENCH_DURATION ?? '5');
const databases = (process.env.BOSUN_BENCH_METRICS_DATABASES ?? 'sqlite,postgres').split(
  ',',
) as TestDialect[];
const log = (line: string) => process.stderr.write(`${line}\n`);

function open(url: string): Kysely<Tables> {
  return url.startsWith('sqlite:')
    ? new Kysely<Tables>({ dialect: new NodeSqliteDialect(url.slice('sqlite:'.length)) })
    : new Kysely<Tables>({
        dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }),
      });
}

/** An op occ row: every hundredth queued (STARTING), the others COMPLETED with no job. */
function opOcc(i: number, at: string): LcmOpOccsTable {
  const queued = i % 100 === 0;
  return {
    id: randomUUID(),
    project_id: 'default',
    vnf_instance_id: randomUUID(),
    operation: 'INSTANTIATE',
    operation_state: queued ? 'STARTING' : 'COMPLETED',
    state_entered_time: at,
    start_time: at,
    is_automatic_invocation: false,
    operation_params: '{}',
    is_cancel_pending: false,
    cancel_mode: null,
    error: null,
    resource_changes: null,
    changed_info: null,
    changed_ext_connectivity: null,
    grant_id: null,
    grant_request: null,
    grant: null,
    progress: '{}',
    placement_attempts: null,
    job_state: queued ? 'queued' : null,
    lease_owner: null,
    lease_until: null,
    attempts: 0,
    created_at: at,
    updated_at: at,
    version: 1,
  };
}

async function seed(db: Kysely<Tables>, n: number): Promise<void> {
  const start = Date.now() - n * 1000;
  for (let i = 0; i < n; i += 500) {
    const count = Math.min(500, n - i);
    const at = (k: number) => new Date(start + (i + k) * 1000).toISOString();
    await db.transaction().execute(async (trx) => {
      for (const table of ['vnf_lcm_op_occs_v2', 'vnf_lcm_op_occs_v1'] as const)
        await trx
          .insertInto(table)
          .values(Array.from({ length: count }, (_, k) => opOcc(i + k, at(k))))
          .execute();
      await trx
        .insertInto('notification_outbox')
        .values(
          Array.from({ length: count }, (_, k) => ({
            subscription_id: `s-${(i + k) % 50}`,
            notification_id: randomUUID(),
            api: 'vnflcm',
            major: 'v2',
            notification_type: 'VnfLcmOperationOccurrenceNotification',
            payload: '{}',
            created_at: at(k),
            state: (i + k) % 10 === 0 ? 'pending' : 'dead',
            next_attempt_at: at(k),
            last_error: null,
          })),
        )
        .execute();
    });
  }
}

/** The plan PostgreSQL picks for each queue's backlog query, one line per node. */
async function plans(db: Kysely<Tables>): Promise<Row[]> {
  await sql`analyze`.execute(db);
  const rows: Row[] = [];
  for (const { queue, rows: q } of QUEUES) {
    const plan = await sql<{
      'QUERY PLAN': string;
    }>`explain select count(*), min(${sql.ref(q.sinceColumn)}) from ${sql.table(q.table)} where ${sql.ref(q.stateColumn)} = ${q.pendingState}`.execute(
      db,
    );
    const nodes = plan.rows.map((r) => r['QUERY PLAN'].trim().replace(/\s+\(cost=.*$/, '')).join(' / ');
    rows.push([`PostgreSQL plan, ${queue} backlog`, /Seq Scan/.test(nodes) ? 'FULL SCAN' : 'index', nodes]);
  }
  return rows;
}

const rows: Row[] = [];
let pgServer: Awaited<ReturnType<typeof startTempPostgres>> | undefined;
for (const dialect of databases) {
  if (dialect === 'postgres' && !process.env.BOSUN_TEST_PG_URL) {
    pgServer = await startTempPostgres();
    process.env.BOSUN_TEST_PG_URL = pgServer.url;
  }
  const env = await newServerEnv(dialect, 'bosun-bench-metrics-');
  const server = await serveProcess(env, 'api', { BOSUN_LOG_ACCESS_LOG: 'false' });
  const db = open(env.databaseUrl);
  try {
    log(`${dialect}: seeding ${ROWS} op occs per major and ${ROWS} notifications`);
    await seed(db, ROWS);
    if (dialect === 'postgres') rows.push(...(await plans(db)));
    const url = `${server.url}/metrics`;
    await autocannon({ url, connections: 1, duration: 1 });
    const r = await autocannon({ url, connections: 1, duration });
    rows.push([
      `${dialect}: GET /metrics, ${ROWS.toLocaleString('en')} op occs per major + ${ROWS.toLocaleString('en')} notifications stored (1 conn)`,
      `${r.requests.average.toFixed(0)} scrapes/s`,
      `p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms; errors ${r.errors + r.non2xx}`,
    ]);
  } finally {
    await db.destroy();
    await stop(server.child);
  }
}
pgServer?.stop();
printRows('Metrics: the cost of a scrape', rows);

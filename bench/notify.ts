/**
 * Notification delivery benchmarks against real `bosun serve` processes, on SQLite and on
 * PostgreSQL (BOSUN_BENCH_NOTIFY_DATABASES, default `sqlite,postgres`; PostgreSQL is a temporary
 * cluster, or BOSUN_TEST_PG_URL), delivering to a receiver process of its own on loopback:
 * 1. deliveries per second to a fast receiver with 1 and with 10 subscriptions, the
 *    notifications written to the outbox (one transaction) while the server runs — target
 *    ≥ 10,000/s with 10; with the database statements the delivery worker ran per notification
 *    (its metric bosun_notification_delivery_statements_total);
 * 2. PostgreSQL only: the same with 10 subscriptions, one API process and 1, 2 and 3 worker
 *    processes (`--role worker`) — target: growing with the processes;
 * 3. time to drain 10,000 pending notifications after a restart (written while it was down);
 * 4. the throughput nine fast subscribers see while a tenth answers only after 5 s, next to the
 *    same nine alone (target: unaffected).
 * Every row shows the 1-minute load average when it was measured: the machine may be shared.
 * BOSUN_BENCH_NOTIFICATIONS (default 20000) sets the size of runs 1 and 2.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startTempPostgres } from '../scripts/postgres.ts';
import { notifyDeliveryWorkers } from '../src/notify/delivery/pg-wakeup.ts';
import { type Database, openDatabase } from '../src/store/db/database.ts';
import { inTransaction } from '../src/store/db/transaction.ts';
import { freshDatabaseUrl, type TestDialect } from '../test/support/databases.ts';
import type { GroupStats } from './servers/receiver.ts';
import { type BosunProcess, startBosun } from './support/bosun-process.ts';
import { printRows, type Row } from './support/report.ts';

const total = Number(process.env.BOSUN_BENCH_NOTIFICATIONS ?? '20000');
const databases = (process.env.BOSUN_BENCH_NOTIFY_DATABASES ?? 'sqlite,postgres').split(',') as TestDialect[];
const TARGET = 10_000;
const load = () => `load ${loadavg()[0].toFixed(2)}`;

/** The receiver process (servers/receiver.ts): its URL and its counts per group. */
async function startReceiver() {
  const child = spawn(process.execPath, [new URL('./servers/receiver.ts', import.meta.url).pathname], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
  const stats = () =>
    new Promise<Record<string, GroupStats>>((resolve) => {
      child.once('message', (m) => resolve(m as Record<string, GroupStats>));
      child.send('stats');
    });
  return { url, pid: child.pid, stats, close: () => stop(child) };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

async function subscribe(base: string, callbackUri: string): Promise<string> {
  const res = await fetch(`${base}/vnfpkgm/v1/subscriptions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ callbackUri }),
  });
  if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/**
 * Writes `count` notifications per subscription, as the outbox does (its NOTIFY included), in
 * one transaction of 200-row INSERTs: they become due together.
 */
async function enqueue(db: Database, subscriptionIds: string[], count: number): Promise<void> {
  const now = new Date().toISOString();
  // Interleaved as real traffic would be: each notification to every subscription in turn.
  const rows = Array.from({ length: count }, (_, seq) => seq).flatMap((seq) =>
    subscriptionIds.map((subscriptionId) => {
      const id = randomBytes(16).toString('hex');
      const payload = {
        id,
        notificationType: 'VnfPackageChangeNotification',
        subscriptionId,
        timeStamp: now,
        vnfPkgId: 'b1bb0ce7-ebca-4fa7-95ed-4840d70a1177',
        changeType: 'OP_STATE_CHANGE',
        operationalState: seq % 2 ? 'ENABLED' : 'DISABLED',
        _links: {
          vnfPackage: { href: '/vnfpkgm/v1/vnf_packages/b1bb0ce7-ebca-4fa7-95ed-4840d70a1177' },
          subscription: { href: `/vnfpkgm/v1/subscriptions/${subscriptionId}` },
        },
      };
      return {
        subscription_id: subscriptionId,
        notification_id: id,
        api: 'vnfpkgm',
        major: 'v1',
        notification_type: payload.notificationType,
        payload: JSON.stringify(payload),
        created_at: now,
        next_attempt_at: now,
        last_error: null,
      };
    }),
  );
  await inTransaction(db, async (trx) => {
    for (let i = 0; i < rows.length; i += 200) {
      await trx
        .insertInto('notification_outbox')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    await notifyDeliveryWorkers(trx);
  });
}

/** Waits until the receiver counted `count` POSTs in `group`; returns that group's figures. */
async function arrived(receiver: Receiver, group: string, count: number, timeoutMs = 600_000) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const stats = (await receiver.stats())[group];
    if (stats && stats.count >= count) return stats;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${count} in ${group}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Deliveries per second between the first and the last arrival. */
const rate = (stats: GroupStats) => stats.count / ((stats.last - stats.first) / 1000);

/** CPU time (user + system) the process has used so far, in ms (Linux /proc). */
function cpuMs(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 per second).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The delivery statements the processes ran so far (their metric, summed). */
async function statements(processes: readonly BosunProcess[]): Promise<number> {
  let sum = 0;
  for (const p of processes) {
    const text = await (await fetch(`${p.url}/metrics`)).text();
    sum += Number(/^bosun_notification_delivery_statements_total (\S+)$/m.exec(text)?.[1] ?? 0);
  }
  return sum;
}

let groups = 0;

/** Run 1 and 2: `subscriptions` subscriptions, `total` notifications; the rate and statements per notification. */
async function throughput(
  receiver: Receiver,
  db: Database,
  api: BosunProcess,
  delivering: readonly BosunProcess[],
  subscriptions: number,
) {
  const group = `run${++groups}`;
  const ids: string[] = [];
  for (let i = 0; i < subscriptions; i++) ids.push(await subscribe(api.url, `${receiver.url}/${group}/${i}`));
  const before = await statements(delivering);
  const per = Math.floor(total / subscriptions);
  const cpu = () => delivering.reduce((sum, p) => sum + cpuMs(p.child.pid), 0);
  const cpuBefore = [cpu(), cpuMs(receiver.pid)];
  await enqueue(db, ids, per);
  const stats = await arrived(receiver, group, per * subscriptions);
  const cpuAfter = [cpu(), cpuMs(receiver.pid)];
  // Sessions end and flush their last rows just after the last arrival.
  await new Promise((r) => setTimeout(r, 300));
  const spent = (await statements(delivering)) - before;
  const perNotification = spent / stats.count;
  const micros = (i: number) => (((cpuAfter[i] - cpuBefore[i]) * 1000) / stats.count).toFixed(0);
  return {
    rate: rate(stats),
    count: stats.count,
    costs: `${perNotification.toFixed(3)} statements/notification; CPU µs/notification: Bosun ${micros(0)}, receiver ${micros(1)}`,
  };
}

const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

async function runOn(dialect: TestDialect, receiver: Receiver): Promise<Row[]> {
  const rows: Row[] = [];
  const work = await mkdtemp(join(tmpdir(), 'bosun-bench-notify-'));
  const databaseUrl = await freshDatabaseUrl(dialect);
  const env = {
    BOSUN_DATABASE_URL: databaseUrl,
    BOSUN_BLOBS_DIR: join(work, 'blobs'),
    BOSUN_SECURITY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    BOSUN_LOG_LEVEL: 'info',
    BOSUN_LOG_ACCESS_LOG: 'false',
    BOSUN_OUTBOUND_ALLOW: '["127.0.0.1"]',
    BOSUN_NOTIFY_CALLBACK_TEST: 'false',
  };
  const started: BosunProcess[] = [];
  const start = async (args: string[] = []) => {
    const p = await startBosun(env, args);
    started.push(p);
    return p;
  };
  const db = openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    let bosun = await start();

    // 1. Throughput of one process, written while it runs.
    for (const subscriptions of [1, 10]) {
      const r = await throughput(receiver, db, bosun, [bosun], subscriptions);
      const target =
        subscriptions === 10
          ? `target ≥ ${TARGET.toLocaleString('en')}/s: ${verdict(r.rate >= TARGET)}; `
          : '';
      rows.push([
        `${dialect}: deliveries/s, ${subscriptions} subscription${subscriptions > 1 ? 's' : ''}, one process`,
        `${r.rate.toFixed(0)}/s`,
        `${target}${r.costs}; ${r.count.toLocaleString('en')} notifications; ${load()}`,
      ]);
    }

    // 2. PostgreSQL: one API process and 1, 2, 3 worker processes.
    if (dialect === 'postgres') {
      await bosun.stop();
      const api = await start(['--role', 'api']);
      const rates: number[] = [];
      for (const n of [1, 2, 3]) {
        const workers: BosunProcess[] = [];
        for (let i = 0; i < n; i++) workers.push(await start(['--role', 'worker']));
        const r = await throughput(receiver, db, api, workers, 10);
        const previous = rates.at(-1);
        rates.push(r.rate);
        const growth =
          previous === undefined
            ? `target ≥ ${TARGET.toLocaleString('en')}/s: ${verdict(r.rate >= TARGET)}`
            : `×${(r.rate / previous).toFixed(2)} of ${n - 1} (target: growing): ${verdict(r.rate > previous)}`;
        rows.push([
          `postgres: deliveries/s, 10 subscriptions, ${n} worker process${n > 1 ? 'es' : ''}`,
          `${r.rate.toFixed(0)}/s`,
          `${growth}; ${r.costs}; ${load()}`,
        ]);
        for (const w of workers) await w.stop();
      }
      await api.stop();
      bosun = await start();
    }

    // 3. Drain after a restart: 10,000 pending written while the server is down.
    const drainIds: string[] = [];
    for (let i = 0; i < 10; i++)
      drainIds.push(await subscribe(bosun.url, `${receiver.url}/drain-${dialect}/${i}`));
    await bosun.stop();
    await enqueue(db, drainIds, 1000);
    const spawned = performance.now();
    bosun = await start();
    const listening = performance.now();
    await arrived(receiver, `drain-${dialect}`, 10_000);
    const drained = performance.now();
    rows.push([
      `${dialect}: drain 10,000 pending after a restart (10 subscriptions)`,
      `${((drained - listening) / 1000).toFixed(2)} s`,
      `from listening (start took ${((listening - spawned) / 1000).toFixed(2)} s); ${(10_000 / ((drained - listening) / 1000)).toFixed(0)}/s; ${load()}`,
    ]);

    // 4. Nine fast subscribers alone, then with a tenth that answers after 5 s.
    const perFast = 1000;
    const nine = async (tag: string, withSlow: boolean) => {
      const group = `nine-${tag}`;
      const ids: string[] = [];
      for (let i = 0; i < 9; i++) ids.push(await subscribe(bosun.url, `${receiver.url}/${group}/${i}`));
      if (withSlow) {
        const slow = await subscribe(bosun.url, `${receiver.url}/slow-${tag}/0`);
        await enqueue(db, [slow], 5);
        // Let the slow subscriber take its slot first.
        await arrived(receiver, `slow-${tag}`, 1);
      }
      await enqueue(db, ids, perFast);
      return rate(await arrived(receiver, group, 9 * perFast));
    };
    const alone = await nine(`${dialect}-alone`, false);
    const alongside = await nine(`${dialect}-with-slow`, true);
    rows.push(
      [
        `${dialect}: nine fast subscribers alone`,
        `${alone.toFixed(0)}/s`,
        `${(9 * perFast).toLocaleString('en')} notifications; ${load()}`,
      ],
      [
        `${dialect}: the same nine while a tenth answers after 5 s`,
        `${alongside.toFixed(0)}/s`,
        `${((alongside / alone) * 100).toFixed(0)}% of alone (target: unaffected); ${load()}`,
      ],
    );
  } finally {
    for (const p of started) await stop(p.child);
    await db.close();
    await rm(work, { recursive: true, force: true });
  }
  return rows;
}

const rows: Row[] = [];
const receiver = await startReceiver();
let pg: Awaited<ReturnType<typeof startTempPostgres>> | undefined;
try {
  for (const dialect of databases) {
    if (dialect === 'postgres' && !process.env.BOSUN_TEST_PG_URL) {
      pg = await startTempPostgres();
      process.env.BOSUN_TEST_PG_URL = pg.url;
    }
    rows.push(...(await runOn(dialect, receiver)));
  }
} finally {
  await receiver.close();
  pg?.stop();
  // What was measured is shown even when a later run failed.
  printRows(
    'Bosun notification delivery benchmarks (bosun serve processes; receiver: node:http, 204, keep-alive)',
    rows,
  );
}

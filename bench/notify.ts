/**
 * Notification delivery benchmarks against a real `bosun serve` process on SQLite, delivering to
 * receivers in this process on loopback:
 * 1. deliveries per second to a fast receiver (target ≥ 2,000/s), with 1 and with 10
 *    subscriptions, the notifications written to the outbox while the server runs;
 * 2. time to drain 10,000 pending notifications after a restart (written while it was down);
 * 3. the throughput nine fast subscribers see while a tenth answers only after 5 s, next to the
 *    same nine alone (target: unaffected).
 * BOSUN_BENCH_NOTIFICATIONS (default 20000) sets the size of run 1.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '../src/store/db/database.ts';
import { inTransaction } from '../src/store/db/transaction.ts';
import { startBosun } from './support/bosun-process.ts';
import { printRows, type Row } from './support/report.ts';

const total = Number(process.env.BOSUN_BENCH_NOTIFICATIONS ?? '20000');

/** A receiver: 204 at once, or after `slowMs` for paths under /slow; counts arrivals per path. */
async function startReceiver(slowMs: number) {
  const arrivals: { path: string; at: number }[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') arrivals.push({ path: req.url ?? '', at: performance.now() });
      if (req.url?.startsWith('/slow')) setTimeout(() => res.writeHead(204).end(), slowMs);
      else res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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

/** Writes `count` notifications per subscription, as the outbox does, 1,000 rows per transaction. */
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
  for (let i = 0; i < rows.length; i += 1000) {
    await inTransaction(db, async (trx) => {
      for (let j = i; j < Math.min(i + 1000, rows.length); j += 200) {
        await trx
          .insertInto('notification_outbox')
          .values(rows.slice(j, Math.min(j + 200, i + 1000)))
          .execute();
      }
    });
  }
}

async function until(predicate: () => boolean, what: string, timeoutMs = 600_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Deliveries per second between the first and the last arrival on these paths. */
function rate(arrivals: { path: string; at: number }[], paths: (p: string) => boolean): number {
  const times = arrivals.filter((a) => paths(a.path)).map((a) => a.at);
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  return times.length / span;
}

const rows: Row[] = [];
const work = await mkdtemp(join(tmpdir(), 'bosun-bench-notify-'));
const databaseUrl = `sqlite:${join(work, 'bosun.db')}`;
const env = {
  BOSUN_DATABASE_URL: databaseUrl,
  BOSUN_BLOBS_DIR: join(work, 'blobs'),
  BOSUN_SECURITY_KEY_FILE: join(work, 'secret.key'),
  BOSUN_LOG_LEVEL: 'info',
  BOSUN_LOG_ACCESS_LOG: 'false',
  BOSUN_OUTBOUND_ALLOW: '["127.0.0.1"]',
  BOSUN_NOTIFY_CALLBACK_TEST: 'false',
};
const receiver = await startReceiver(5000);
let db: Database | undefined;
try {
  let bosun = await startBosun(env);
  db = openDatabase({ url: databaseUrl, poolSize: 1 });

  // 1. Throughput, written while the server runs.
  for (const subscriptions of [1, 10]) {
    const paths = Array.from({ length: subscriptions }, (_, i) => `/fast/${subscriptions}/${i}`);
    const ids: string[] = [];
    for (const path of paths) ids.push(await subscribe(bosun.url, receiver.url + path));
    const before = receiver.arrivals.length;
    await enqueue(db, ids, Math.floor(total / subscriptions));
    const expected = before + Math.floor(total / subscriptions) * subscriptions;
    await until(() => receiver.arrivals.length >= expected, 'run 1');
    const prefix = `/fast/${subscriptions}/`;
    rows.push([
      `deliveries/s to a fast receiver, ${subscriptions} subscription${subscriptions > 1 ? 's' : ''}`,
      `${rate(receiver.arrivals, (p) => p.startsWith(prefix)).toFixed(0)}/s`,
      `${(expected - before).toLocaleString('en')} notifications (target ≥ 2,000/s); Tacker: fire-and-forget, no queue`,
    ]);
  }

  // 2. Drain after a restart: 10,000 pending written while the server is down.
  await bosun.stop();
  const drainIds = await (async () => {
    bosun = await startBosun(env);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await subscribe(bosun.url, `${receiver.url}/drain/${i}`));
    await bosun.stop();
    return ids;
  })();
  await enqueue(db, drainIds, 1000);
  const before = receiver.arrivals.length;
  const spawned = performance.now();
  bosun = await startBosun(env);
  const listening = performance.now();
  await until(() => receiver.arrivals.length >= before + 10_000, 'the drain');
  const drained = performance.now();
  rows.push([
    'drain 10,000 pending after a restart (10 subscriptions)',
    `${((drained - listening) / 1000).toFixed(2)} s`,
    `from listening (start took ${((listening - spawned) / 1000).toFixed(2)} s); ${(10_000 / ((drained - listening) / 1000)).toFixed(0)}/s`,
  ]);

  // 3. Nine fast subscribers alone, then with a tenth that answers after 5 s.
  const perFast = 1000;
  const nine = async (tag: string, withSlow: boolean) => {
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push(await subscribe(bosun.url, `${receiver.url}/nine-${tag}/${i}`));
    const slow = withSlow ? await subscribe(bosun.url, `${receiver.url}/slow/${tag}`) : undefined;
    if (slow) await enqueue(db as Database, [slow], 5);
    // Let the slow subscriber take its slot first.
    if (slow) await until(() => receiver.arrivals.some((a) => a.path === `/slow/${tag}`), 'the slow one');
    const before = receiver.arrivals.filter((a) => a.path.startsWith(`/nine-${tag}/`)).length;
    await enqueue(db as Database, ids, perFast);
    await until(
      () =>
        receiver.arrivals.filter((a) => a.path.startsWith(`/nine-${tag}/`)).length >= before + 9 * perFast,
      `nine ${tag}`,
    );
    return rate(receiver.arrivals, (p) => p.startsWith(`/nine-${tag}/`));
  };
  const alone = await nine('alone', false);
  const withSlow = await nine('with-slow', true);
  rows.push(
    [
      'nine fast subscribers alone',
      `${alone.toFixed(0)}/s`,
      `${(9 * perFast).toLocaleString('en')} notifications`,
    ],
    [
      'the same nine while a tenth answers after 5 s',
      `${withSlow.toFixed(0)}/s`,
      `${((withSlow / alone) * 100).toFixed(0)}% of alone (target: unaffected)`,
    ],
  );
  await bosun.stop();
} finally {
  await db?.close();
  await receiver.close();
  await rm(work, { recursive: true, force: true });
}

printRows('Bosun notification delivery benchmarks (server: bosun serve, SQLite)', rows);

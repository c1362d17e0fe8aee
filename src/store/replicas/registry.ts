/**
 * The replica registry: each `bosun serve` process announces itself (upserts its row) every
 * `REPLICA_BEAT_MS` and removes its row when it stops gracefully. A row not refreshed for
 * `REPLICA_STALE_MS` belongs to a process that died or hangs (shown stale); the janitor removes
 * rows unseen for `REPLICA_GONE_MS`, long enough for an operator to see which replica vanished.
 */
import type { Executor } from '../db/transaction.ts';

/** How often a live process refreshes its row. */
export const REPLICA_BEAT_MS = 5_000;
/** Three beats missed: the process is presumed dead or stuck. */
export const REPLICA_STALE_MS = 3 * REPLICA_BEAT_MS;
/** A stale row is kept this long for the operator to see, then swept. */
export const REPLICA_GONE_MS = 10 * 60_000;

export interface ReplicaIdentity {
  /** The process's lease-owner id: the owner its jobs' leases name. */
  id: string;
  role: string;
  version: string;
  hostname: string;
  pid: number;
  startedAt: string;
}

export interface Replica extends ReplicaIdentity {
  seenAt: string;
  /** Whether the process refreshed its row within REPLICA_STALE_MS of `now`. */
  alive: boolean;
}

/** Writes or refreshes the process's row, seen now. */
export async function announceReplica(db: Executor, replica: ReplicaIdentity): Promise<void> {
  const seenAt = new Date().toISOString();
  await db
    .insertInto('replicas')
    .values({
      id: replica.id,
      role: replica.role,
      version: replica.version,
      hostname: replica.hostname,
      pid: replica.pid,
      started_at: replica.startedAt,
      seen_at: seenAt,
    })
    // A swept row comes back whole; a live one only moves its last sign of life.
    .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: seenAt, role: replica.role }))
    .execute();
}

/** Removes the process's row (a graceful stop). */
export async function retireReplica(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('replicas').where('id', '=', id).execute();
}

/** Every registered replica, each alive or stale as of `now`. */
export async function listReplicas(db: Executor, now = Date.now()): Promise<Replica[]> {
  const rows = await db.selectFrom('replicas').selectAll().orderBy('role').orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    role: r.role,
    version: r.version,
    hostname: r.hostname,
    pid: Number(r.pid),
    startedAt: r.started_at,
    seenAt: r.seen_at,
    alive: now - Date.parse(r.seen_at) <= REPLICA_STALE_MS,
  }));
}

/** Removes the rows unseen for `unseenMs`; returns their ids. */
export async function sweepReplicas(db: Executor, unseenMs = REPLICA_GONE_MS): Promise<string[]> {
  const before = new Date(Date.now() - unseenMs).toISOString();
  const gone = await db.deleteFrom('replicas').where('seen_at', '<', before).returning('id').execute();
  return gone.map((r) => r.id);
}

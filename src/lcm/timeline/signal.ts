/**
 * Who is waiting for an op occ's new timeline events in this process (its open streams), and the
 * signal that there are some: sent in-process once the events are committed, and on PostgreSQL
 * through NOTIFY so that streams served by every other process hear of them too (listen.ts).
 * A stream also looks by itself now and then: a lost signal costs latency, never an event.
 */
import { sql } from 'kysely';
import type { Database } from '../../store/db/database.ts';
import type { Executor } from '../../store/db/transaction.ts';

export const CHANNEL = 'bosun_lcm_events';

const waiting = new Map<string, Set<() => void>>();

/** Calls `listener` whenever op occ `opOccId` has new events; returns the unsubscribe. */
export function onOpEvents(opOccId: string, listener: () => void): () => void {
  let set = waiting.get(opOccId);
  if (!set) {
    set = new Set();
    waiting.set(opOccId, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0 && waiting.get(opOccId) === set) waiting.delete(opOccId);
  };
}

/** New events of `opOccId` are committed: wakes this process's streams of it. */
export function opEventsCommitted(opOccId: string): void {
  for (const listener of waiting.get(opOccId) ?? []) listener();
}

/** Whether any stream of this process follows `opOccId` (the cross-process listener forwards only those). */
export const followed = (opOccId: string) => waiting.has(opOccId);

/** The op occs this process's streams follow. */
export const followedIds = () => [...waiting.keys()];

/** In the transaction writing the events: PostgreSQL delivers the NOTIFY to other processes at commit. */
export async function notifyOtherProcesses(trx: Executor, db: Database, opOccId: string): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await sql`select pg_notify(${CHANNEL}, ${opOccId})`.execute(trx);
}

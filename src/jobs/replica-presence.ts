/**
 * This process in the replica registry: its row written at start, refreshed every
 * REPLICA_BEAT_MS on a poll loop (a failed refresh is logged and tried at the next beat), and
 * removed at a graceful stop. Every role runs it, api replicas too: `bosun status` lists them all.
 */
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Database } from '../store/db/database.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import {
  announceReplica,
  REPLICA_BEAT_MS,
  type ReplicaIdentity,
  retireReplica,
} from '../store/replicas/registry.ts';
import { BOSUN_VERSION } from '../version.ts';
import type { Loop } from './index.ts';
import { PollLoop } from './poll-loop.ts';

/** Who this process is, as its replica row and its metrics name it. */
export function thisReplica(role: string): ReplicaIdentity {
  return {
    id: PROCESS_OWNER,
    role,
    version: BOSUN_VERSION,
    hostname: hostname(),
    pid: process.pid,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
  };
}

export function replicaPresence(db: Database, replica: ReplicaIdentity, logger: Logger): Loop {
  const loop = new PollLoop({
    tick: () => announceReplica(db.kysely, replica),
    intervalMs: REPLICA_BEAT_MS,
    logger,
    failure: 'replica registry refresh failed',
  });
  return {
    name: 'replica registry',
    start: () => loop.start(),
    async stop() {
      await loop.stop();
      await retireReplica(db.kysely, replica.id).catch((err: unknown) =>
        logger.warn({ err }, 'replica registry: row not removed (the janitor sweeps it)'),
      );
    },
  };
}

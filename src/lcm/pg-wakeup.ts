/**
 * Wake-ups across processes on PostgreSQL (LISTEN/NOTIFY): the API, after committing an op occ
 * (or a retry, rollback, cancel), notifies channel `bosun_lcm`; every worker process listens on a
 * connection of its own and looks for work at once — and aborts the step in flight of a FORCEFUL
 * cancel it runs. Without it, workers of other processes find the work at their poll interval;
 * polling stays the safety net (a lost notification or connection costs only latency).
 */
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../store/db/database.ts';
import { PgListener } from '../store/db/pg-listen.ts';
import type { CancelMode } from './model.ts';

const CHANNEL = 'bosun_lcm';

/** Tells every listening worker process that there is work (or a FORCEFUL cancel of `opOccId`). */
export async function notifyWorkers(
  db: Database,
  cancel?: { opOccId: string; mode: CancelMode },
): Promise<void> {
  if (db.dialect !== 'postgres') return;
  const payload = cancel ? `cancel ${cancel.opOccId} ${cancel.mode}` : 'wake';
  await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(db.kysely).catch(() => {});
}

export interface WakeupHandlers {
  wake(): void;
  cancel(opOccId: string, mode: CancelMode): void;
}

/** A LISTEN connection of the worker process that reconnects after errors until stopped. */
export class PgWakeupListener extends PgListener {
  constructor(url: string, handlers: WakeupHandlers, logger: Logger) {
    super({
      url,
      channel: CHANNEL,
      applicationName: 'bosun-lcm-listen',
      logger,
      unavailable: 'LCM wake-up listener could not connect; relying on polling',
      onMessage(payload) {
        const [kind, id, mode] = payload.split(' ');
        if (kind === 'cancel' && id) handlers.cancel(id, (mode as CancelMode) ?? 'GRACEFUL');
        handlers.wake();
      },
      // Work may have been queued while not listening.
      onListening: () => handlers.wake(),
    });
  }
}

/**
 * Wake-ups across processes on PostgreSQL (LISTEN/NOTIFY): the API, after committing an op occ
 * (or a retry, rollback, cancel), notifies channel `bosun_lcm`; every worker process listens on a
 * connection of its own and looks for work at once — and aborts the step in flight of a FORCEFUL
 * cancel it runs. Without it, workers of other processes find the work at their poll interval;
 * polling stays the safety net (a lost notification or connection costs only latency).
 */
import { sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from '../store/db/database.ts';
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

/** A LISTEN connection that reconnects after errors until stopped. */
export class PgWakeupListener {
  readonly #url: string;
  readonly #handlers: WakeupHandlers;
  readonly #logger: Logger;
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(url: string, handlers: WakeupHandlers, logger: Logger) {
    this.#url = url;
    this.#handlers = handlers;
    this.#logger = logger;
  }

  start(): void {
    this.#stopped = false;
    void this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({ connectionString: this.#url, application_name: 'bosun-lcm-listen' });
    const again = () => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      client.end().catch(() => {});
      this.#retry = setTimeout(() => void this.#connect(), 1000);
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (message) => {
      const [kind, id, mode] = (message.payload ?? '').split(' ');
      if (kind === 'cancel' && id) this.#handlers.cancel(id, (mode as CancelMode) ?? 'GRACEFUL');
      this.#handlers.wake();
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      // Work may have been queued while not listening.
      this.#handlers.wake();
    } catch (err) {
      this.#logger.warn({ err }, 'LCM wake-up listener could not connect; relying on polling');
      again();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}

/**
 * A PostgreSQL LISTEN connection of its own on one channel, reconnecting after errors until
 * stopped: what NOTIFY-based wake-ups between processes share (the LCM workers', the timeline
 * streams'). Each payload goes to `onMessage`; `onListening` runs each time it (re)starts
 * listening, since what was notified meanwhile is lost. Notifications only save latency: their
 * users also poll.
 */
import pg from 'pg';
import type { Logger } from 'pino';

export interface PgListenOptions {
  url: string;
  /** A plain identifier (it is not quoted). */
  channel: string;
  /** Shown in pg_stat_activity. */
  applicationName: string;
  onMessage(payload: string): void;
  onListening?(): void;
  logger: Logger;
  /** Logged when it cannot connect (it tries again every second). */
  unavailable: string;
}

export class PgListener {
  readonly #options: PgListenOptions;
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(options: PgListenOptions) {
    this.#options = options;
  }

  start(): void {
    this.#stopped = false;
    void this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const { url, channel, applicationName, onMessage, onListening, logger, unavailable } = this.#options;
    const client = new pg.Client({ connectionString: url, application_name: applicationName });
    const again = () => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      client.end().catch(() => {});
      this.#retry = setTimeout(() => void this.#connect(), 1000);
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (message) => onMessage(message.payload ?? ''));
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      onListening?.();
    } catch (err) {
      logger.warn({ err }, unavailable);
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

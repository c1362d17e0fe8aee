/**
 * On PostgreSQL, one LISTEN connection per serving process for the timeline channel: a NOTIFY
 * another process sent when it committed events of an op occ wakes this process's streams of
 * that op occ. It reconnects after errors until stopped; while it is down the streams' own
 * polling finds the events (later, never fewer).
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { CHANNEL, followed, opEventsCommitted } from './signal.ts';

export class TimelineListener {
  readonly #url: string;
  readonly #logger: Logger;
  #client: pg.Client | undefined;
  #stopped = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(url: string, logger: Logger) {
    this.#url = url;
    this.#logger = logger;
  }

  start(): void {
    this.#stopped = false;
    void this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({ connectionString: this.#url, application_name: 'bosun-timeline-listen' });
    const again = () => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      client.end().catch(() => {});
      this.#retry = setTimeout(() => void this.#connect(), 1000);
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (message) => {
      const id = message.payload ?? '';
      if (followed(id)) opEventsCommitted(id);
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      this.#logger.warn({ err }, 'timeline listener could not connect; event streams rely on polling');
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

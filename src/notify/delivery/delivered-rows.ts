/**
 * Delivered notifications leave the outbox in batches shared by every delivery session of the
 * process: one transaction every FLUSH_EVERY_MS deletes what all of them delivered meanwhile and
 * counts it per subscription, instead of a transaction per session batch. A session settles
 * (waits for its rows to be gone) before it records a failure and before it hands its lease
 * back, so another worker never sends them again; only a crash in between can (at-least-once).
 */
import type { Logger } from 'pino';
import type { Database } from '../../store/db/database.ts';
import { recordDelivered } from './queue.ts';

/** Delivered rows are removed from the outbox at least this often. */
const FLUSH_EVERY_MS = 100;

export class DeliveredRows {
  readonly #db: Database;
  readonly #logger: Logger;
  /** Rows delivered and not yet removed, by subscription. */
  #waiting = new Map<string, number[]>();
  /** The last flush started: flushes run one after the other. */
  #tail: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;

  constructor(db: Database, logger: Logger) {
    this.#db = db;
    this.#logger = logger;
  }

  /** Row `id` of the subscription was delivered: it goes with the next flush. */
  add(subscriptionId: string, id: number): void {
    let ids = this.#waiting.get(subscriptionId);
    if (!ids) {
      ids = [];
      this.#waiting.set(subscriptionId, ids);
    }
    ids.push(id);
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.flush().catch((err) =>
        this.#logger.warn({ err }, 'delivered notifications could not be removed; they may be sent again'),
      );
    }, FLUSH_EVERY_MS);
  }

  /** Resolves once every row added so far is removed; rejects when that failed. */
  flush(): Promise<void> {
    const run = async () => {
      const batch = this.#waiting;
      this.#waiting = new Map();
      if (batch.size) await recordDelivered(this.#db, batch);
    };
    const flushed = this.#tail.then(run, run);
    this.#tail = flushed.catch(() => {});
    return flushed;
  }

  /** The worker stops: what is left is removed now. */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.flush();
  }
}

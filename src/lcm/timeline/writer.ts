/**
 * The timeline writer of one run of an op occ: the engine, the hooks and the drivers emit events
 * as they happen (synchronously: a driver's output callback cannot wait), and the writer appends
 * them in order, in batches, in transactions of their own. `flush` waits until everything
 * emitted is written — the engine flushes before a state change, so that a step's lines come
 * before the state it leads to. A failure to write is logged and the operation goes on: the
 * timeline describes the operation, it must never fail it.
 */
import type { Logger } from 'pino';
import type { Database } from '../../store/db/database.ts';
import { nowIso } from '../model.ts';
import type { NewOpEvent } from './event.ts';
import { recordOpEvents } from './record.ts';
import { opEventsCommitted } from './signal.ts';

/** Events kept waiting at most; beyond, output lines are dropped until the database catches up. */
const MAX_PENDING = 5000;

export class TimelineWriter {
  readonly #db: Database;
  readonly #opOccId: string;
  readonly #maxOutputLines: number;
  readonly #logger: Logger;
  #pending: NewOpEvent[] = [];
  #writing: Promise<void> = Promise.resolve();
  #scheduled = false;

  constructor(deps: { db: Database; logger: Logger; maxOutputLines: number }, opOccId: string) {
    this.#db = deps.db;
    this.#logger = deps.logger;
    this.#maxOutputLines = deps.maxOutputLines;
    this.#opOccId = opOccId;
  }

  emit(event: NewOpEvent): void {
    if (this.#pending.length >= MAX_PENDING && event.kind === 'output') return;
    this.#pending.push({ ...event, at: event.at ?? nowIso() });
    if (this.#scheduled) return;
    this.#scheduled = true;
    // One write per turn of the event loop gathers the lines a burst of output made.
    this.#writing = this.#writing.then(
      () =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            this.#scheduled = false;
            resolve(this.#write());
          }),
        ),
    );
  }

  /** Resolves once every event emitted so far is written (or given up). */
  flush(): Promise<void> {
    return this.#writing;
  }

  async #write(): Promise<void> {
    const batch = this.#pending;
    this.#pending = [];
    if (!batch.length) return;
    try {
      await recordOpEvents(this.#db, this.#opOccId, batch, this.#maxOutputLines);
      opEventsCommitted(this.#opOccId);
    } catch (err) {
      this.#logger.warn({ err, vnfLcmOpOccId: this.#opOccId }, 'could not record timeline events');
    }
  }
}

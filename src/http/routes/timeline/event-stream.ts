/**
 * One server-sent events stream of an op occ's timeline: sends the events after the client's
 * last one, then each new one as it is committed (woken by signal.ts — this process's writes,
 * other processes' through PostgreSQL's NOTIFY — and by its own polling), a heartbeat comment
 * now and then, and `event: end` once the op occ stopped running (final, or FAILED_TEMP waiting
 * for the user) and all its events were sent. The state is read before the events: a state's
 * own event commits with it, so nothing is left behind. Idle for too long, it closes (the
 * client resumes with Last-Event-ID).
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { OpEvent } from '../../../lcm/timeline/event.ts';
import { READ_BATCH } from '../../../lcm/timeline/read.ts';
import { onOpEvents } from '../../../lcm/timeline/signal.ts';

/** States in which the op occ no longer runs: the stream ends once their events are sent. */
export const STREAM_END_STATES: readonly string[] = ['COMPLETED', 'FAILED', 'ROLLED_BACK', 'FAILED_TEMP'];

export interface StreamSource {
  state(): Promise<string | undefined>;
  events(after: number, limit: number): Promise<OpEvent[]>;
}

export interface StreamTiming {
  heartbeatMs: number;
  pollMs: number;
  idleTimeoutMs: number;
}

export class EventStream {
  readonly #res: ServerResponse;
  readonly #opOccId: string;
  readonly #source: StreamSource;
  readonly #timing: StreamTiming;
  readonly #logger: Logger;
  #after: number;
  #timers: NodeJS.Timeout[] = [];
  #unsubscribe: () => void = () => {};
  #pumping = false;
  #again = false;
  #closed = false;
  #lastEventAt = Date.now();
  readonly #ended: Promise<void>;
  #resolveEnded: () => void = () => {};
  readonly #onEnd: (() => void)[] = [];

  constructor(
    res: ServerResponse,
    opts: { opOccId: string; after: number; source: StreamSource; timing: StreamTiming; logger: Logger },
  ) {
    this.#res = res;
    this.#opOccId = opts.opOccId;
    this.#after = opts.after;
    this.#source = opts.source;
    this.#timing = opts.timing;
    this.#logger = opts.logger;
    this.#ended = new Promise((resolve) => {
      this.#resolveEnded = resolve;
    });
  }

  /** Starts sending; resolves when the stream ended (for whatever reason). */
  run(): Promise<void> {
    const res = this.#res;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      // Proxies that buffer (nginx) would hold the events back.
      'X-Accel-Buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    res.on('close', () => this.close());
    this.#unsubscribe = onOpEvents(this.#opOccId, () => this.#pump());
    const { heartbeatMs, pollMs } = this.#timing;
    this.#timers.push(setInterval(() => this.#heartbeat(), heartbeatMs));
    this.#timers.push(setInterval(() => this.#pump(), pollMs));
    this.#pump();
    return this.#ended;
  }

  onEnd(fn: () => void): void {
    this.#onEnd.push(fn);
  }

  #heartbeat(): void {
    if (this.#closed) return;
    if (Date.now() - this.#lastEventAt >= this.#timing.idleTimeoutMs) {
      this.close(
        `no event for ${this.#timing.idleTimeoutMs} ms (lcm.timeline.streamIdleTimeoutMs): reconnect with Last-Event-ID to go on`,
      );
      return;
    }
    this.#res.write(': heartbeat\n\n');
  }

  /** Reads and sends what is new; one read at a time (a wake-up during a read reads again after it). */
  #pump(): void {
    if (this.#closed) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    void this.#send()
      .catch((err) => {
        this.#logger.warn({ err, vnfLcmOpOccId: this.#opOccId }, 'event stream could not read the timeline');
      })
      .finally(() => {
        this.#pumping = false;
        if (this.#again) {
          this.#again = false;
          this.#pump();
        }
      });
  }

  async #send(): Promise<void> {
    const state = await this.#source.state();
    if (this.#closed) return;
    if (state === undefined) {
      this.close('the operation occurrence no longer exists');
      return;
    }
    let batch: OpEvent[];
    do {
      batch = await this.#source.events(this.#after, READ_BATCH);
      if (this.#closed) return;
      for (const event of batch) {
        // A slow client is not sent more than its socket takes: the events wait in the database.
        if (!this.#res.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`)) await this.#drained();
        this.#after = event.seq;
        this.#lastEventAt = Date.now();
        if (this.#closed) return;
      }
    } while (batch.length === READ_BATCH);
    if (STREAM_END_STATES.includes(state)) {
      this.#res.write(`event: end\ndata: ${JSON.stringify({ operationState: state })}\n\n`);
      this.close();
    }
  }

  #drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.#res.off('drain', done);
        this.#res.off('close', done);
        resolve();
      };
      this.#res.on('drain', done);
      this.#res.on('close', done);
    });
  }

  /** Ends the stream, saying why in a comment when it is not the op occ's end. */
  close(why?: string): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const t of this.#timers) clearInterval(t);
    this.#unsubscribe();
    if (!this.#res.writableEnded && !this.#res.destroyed) {
      if (why) this.#res.write(`: ${why.replace(/\n/g, ' ')}\n\n`);
      this.#res.end();
    }
    for (const fn of this.#onEnd) fn();
    this.#resolveEnded();
  }
}

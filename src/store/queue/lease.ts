/**
 * A held job lease: renewed every third of its length while the job runs, and a liveness check:
 * `signal` aborts once a renewal finds the lease gone (the job was taken over after this process
 * stalled, or ended elsewhere), so the work stops instead of running beside its new owner. A
 * renewal the database does not answer is tried again at the next beat; if that goes on, the
 * lease runs out by itself and the writes fenced by it change nothing. `valid` also says when the
 * lease may have run out by this process's clock (a quarter of it before the database's expiry,
 * counted from the last renewal that started), for work that must never overlap a taker's.
 */

/** Extends the lease in the database; false when this process no longer holds it. */
export type RenewLease = () => Promise<boolean>;

export class HeldLease {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #renew: RenewLease;
  readonly #margin: number;
  #validUntil: number;
  #renewing = false;

  /** Call right after the lease was taken (claimed, taken over, or the upload began). */
  constructor(leaseMs: number, renew: RenewLease) {
    this.#renew = renew;
    this.#margin = (leaseMs * 3) / 4;
    this.#validUntil = Date.now() + this.#margin;
    this.#timer = setInterval(() => this.#beat(), Math.max(50, Math.floor(leaseMs / 3)));
  }

  /** Aborted (with a "lease lost" error) once this process no longer holds the lease. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get lost(): boolean {
    return this.#controller.signal.aborted;
  }

  /** Not lost, and renewed recently enough that no other process can have taken it over. */
  get valid(): boolean {
    return !this.lost && Date.now() < this.#validUntil;
  }

  /** Stops renewing (the job ended, or released the lease itself). */
  stop(): void {
    clearInterval(this.#timer);
  }

  async #beat(): Promise<void> {
    // One renewal at a time: a slow database must not pile them up.
    if (this.#renewing || this.lost) return;
    this.#renewing = true;
    const started = Date.now();
    try {
      if (await this.#renew()) this.#validUntil = started + this.#margin;
      else {
        this.stop();
        this.#controller.abort(new Error('lease lost'));
      }
    } catch {
      // Not answered: the next beat tries again.
    } finally {
      this.#renewing = false;
    }
  }
}

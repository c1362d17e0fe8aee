/**
 * A held subscription lease, heartbeated while a session delivers. Sending stops as soon as the
 * lease may have expired by this process's clock (a quarter of it before the database's expiry),
 * so that a worker that stalled never sends alongside the one that took over.
 */
import type { Database } from '../../store/db/database.ts';
import { renewLease } from './queue.ts';

export class HeldLease {
  readonly #db: Database;
  readonly #subscriptionId: string;
  readonly #owner: string;
  readonly #leaseMs: number;
  readonly #timer: NodeJS.Timeout;
  #validUntil: number;
  #lost = false;

  /** Call right after a successful claim. */
  constructor(db: Database, subscriptionId: string, owner: string, leaseMs: number) {
    this.#db = db;
    this.#subscriptionId = subscriptionId;
    this.#owner = owner;
    this.#leaseMs = leaseMs;
    this.#validUntil = Date.now() + (leaseMs * 3) / 4;
    this.#timer = setInterval(() => this.#renew(), Math.max(50, Math.floor(leaseMs / 4)));
  }

  get valid(): boolean {
    return !this.#lost && Date.now() < this.#validUntil;
  }

  async #renew(): Promise<void> {
    const started = Date.now();
    try {
      if (await renewLease(this.#db, this.#subscriptionId, this.#owner, this.#leaseMs)) {
        this.#validUntil = started + (this.#leaseMs * 3) / 4;
      } else {
        this.#lost = true;
      }
    } catch {
      // The database did not answer: the lease runs out by itself if this goes on.
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}

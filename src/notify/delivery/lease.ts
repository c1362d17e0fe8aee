/**
 * A held subscription lease: the job lease (store/queue/lease.ts) heartbeated while a session
 * delivers, plus a check by this process's clock. Sending stops as soon as the lease may have
 * expired (a quarter of it before the database's expiry, counted from the last renewal that
 * started), so that a worker that stalled never sends alongside the one that took over.
 */
import type { Database } from '../../store/db/database.ts';
import { HeldLease } from '../../store/queue/lease.ts';
import { renewLease } from './queue.ts';

export class SubscriptionLease {
  /** This process's lease-owner id. */
  readonly owner: string;
  readonly #held: HeldLease;
  #validUntil: number;

  /** Call right after a successful claim. */
  constructor(db: Database, subscriptionId: string, owner: string, leaseMs: number) {
    this.owner = owner;
    const margin = (leaseMs * 3) / 4;
    this.#validUntil = Date.now() + margin;
    this.#held = new HeldLease(leaseMs, async () => {
      const started = Date.now();
      const held = await renewLease(db, subscriptionId, owner, leaseMs);
      if (held) this.#validUntil = started + margin;
      return held;
    });
  }

  get valid(): boolean {
    return !this.#held.lost && Date.now() < this.#validUntil;
  }

  stop(): void {
    this.#held.stop();
  }
}

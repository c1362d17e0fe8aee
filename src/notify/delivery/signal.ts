/**
 * The in-process wake-up of the delivery workers: whoever writes outbox rows (or turns dead
 * notifications back to pending) calls `wakeDelivery()`, and the workers of this process look
 * for work at once instead of at their next poll. Other processes find the rows by polling.
 *
 * The enqueuer may call it inside its transaction, before the rows are visible to others: a
 * worker therefore looks again shortly after a wake (see jobs/delivery-worker.ts). The listeners run
 * outside the enqueuer's transaction scope: the look they start is the worker's own work on the
 * root handle, not the transaction's (it would otherwise be refused while the transaction is open).
 */
import { outsideTransaction } from '../../store/db/transaction-scope.ts';

type Listener = () => void;

const listeners = new Set<Listener>();

export function wakeDelivery(): void {
  outsideTransaction(() => {
    for (const listener of listeners) listener();
  });
}

/** Registers a worker's wake-up; returns the function that unregisters it. */
export function onDeliveryWake(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * What the job queues tell the metrics: a job claimed by a worker, a lease renewal and its
 * outcome, an abandoned job taken over. The queue code and the runner report here and know
 * nothing of Prometheus; the server's metrics (http/ops/cluster-metrics.ts) listen. A process
 * without listeners (a CLI command, a test) pays one empty loop per event.
 */

/** How a renewal ended: extended, found taken (the job is lost), or not answered (retried). */
export type RenewalOutcome = 'renewed' | 'lost' | 'failed';

export type QueueEvent =
  | { kind: 'claimed'; worker: string }
  | { kind: 'renewal'; worker: string; outcome: RenewalOutcome }
  | { kind: 'take-over'; queue: string };

export type QueueListener = (event: QueueEvent) => void;

const listeners = new Set<QueueListener>();

/** Listens to every queue event of this process; returns what stops listening. */
export function onQueueEvent(listener: QueueListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function queueEvent(event: QueueEvent): void {
  for (const listener of listeners) listener(event);
}

/** A renewal whose outcome is reported for `worker`, its answer passed through unchanged. */
export async function reportedRenewal(worker: string, renewal: Promise<boolean>): Promise<boolean> {
  try {
    const held = await renewal;
    queueEvent({ kind: 'renewal', worker, outcome: held ? 'renewed' : 'lost' });
    return held;
  } catch (err) {
    queueEvent({ kind: 'renewal', worker, outcome: 'failed' });
    throw err;
  }
}

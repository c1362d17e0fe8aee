/**
 * What the delivery worker reports for metrics; the Prometheus implementation lives with the
 * other metrics (http/ops/delivery-metrics.ts), so delivery does not depend on the HTTP layer.
 */
export type AttemptOutcome = 'delivered' | 'failed' | 'dead';

export interface DeliveryMetrics {
  /** One callback attempt: its outcome, how long the call took, and whether it was a retry. */
  attempt(api: string, outcome: AttemptOutcome, seconds: number, retry: boolean): void;
  /** A notification delivered, `seconds` after it was produced. */
  delivered(api: string, seconds: number): void;
  /** The delivery worker ran one more database statement. */
  statement(): void;
}

export const NO_METRICS: DeliveryMetrics = { attempt() {}, delivered() {}, statement() {} };

/**
 * How much this process asks of its database: statements sent and transactions begun, counted
 * where every query passes (the root-handle guard wraps each connection). The cost of an LCM
 * operation or a delivered notification is mostly round trips, so the benchmarks and /metrics
 * read these to show statements per operation.
 */
export const statementMeter = {
  /** Statements sent, transaction control (BEGIN, COMMIT, ROLLBACK) included. */
  statements: 0,
  /** Transactions begun. */
  transactions: 0,
};

/**
 * The database statements and transactions this process has sent (store/db/statement-meter.ts),
 * as counters read at scrape time: what an LCM operation or a notification costs in round trips.
 */
import { Counter, type Registry } from 'prom-client';
import { statementMeter } from '../../store/db/statement-meter.ts';

export function registerDbMetrics(registry: Registry): void {
  for (const [name, key, help] of [
    ['bosun_db_statements_total', 'statements', 'Database statements sent (BEGIN and COMMIT included)'],
    ['bosun_db_transactions_total', 'transactions', 'Database transactions begun'],
  ] as const) {
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(statementMeter[key]);
      },
    });
  }
}

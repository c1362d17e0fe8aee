/**
 * Wake-ups of the delivery workers across processes on PostgreSQL (LISTEN/NOTIFY): the
 * transaction that writes outbox rows (or turns dead ones back to pending) notifies channel
 * `bosun_delivery`, which PostgreSQL delivers at commit — so an idle worker of any replica looks
 * for work at once, and never before the rows are visible. Polling stays the safety net: a lost
 * notification or connection costs only latency.
 */
import { PostgresAdapter, sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../../store/db/database.ts';
import { PgListener } from '../../store/db/pg-listen.ts';
import type { Executor } from '../../store/db/transaction.ts';

const CHANNEL = 'bosun_delivery';

/** In the writing transaction: every listening worker process wakes when it commits (PostgreSQL only). */
export async function notifyDeliveryWorkers(trx: Executor): Promise<void> {
  // The executor knows its dialect; the outbox is written by callers that pass only a transaction.
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_notify(${CHANNEL}, '')`.execute(trx);
}

/** Outside a transaction: a subscription was handed back with work left; other processes look now. */
export async function wakeOtherWorkers(db: Database): Promise<void> {
  if (db.dialect !== 'postgres') return;
  // Only latency is lost when it fails: the others poll.
  await sql`select pg_notify(${CHANNEL}, '')`.execute(db.kysely).catch(() => {});
}

/** The delivery worker's LISTEN connection, reconnecting after errors until stopped. */
export class DeliveryWakeupListener extends PgListener {
  constructor(url: string, wake: () => void, logger: Logger) {
    super({
      url,
      channel: CHANNEL,
      applicationName: 'bosun-delivery-listen',
      logger,
      unavailable: 'notification delivery wake-up listener could not connect; relying on polling',
      onMessage: wake,
      // Rows may have been written while not listening.
      onListening: wake,
    });
  }
}

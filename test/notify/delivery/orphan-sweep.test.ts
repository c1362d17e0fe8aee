/**
 * The janitor's delivery sweep removes what a subscription that no longer exists left behind —
 * its queued notifications and its delivery row (rows of older versions, or written outside
 * Bosun: the workers look for due notifications from the subscriptions and would never send
 * them) — and leaves an existing subscription's queue alone, on SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { sweepOrphanStates } from '../../../src/notify/delivery/queue.ts';
import { DIALECTS } from '../../support/databases.ts';
import { deliveryServer, enqueueFor, subscribe } from './support.ts';

for (const dialect of DIALECTS) {
  describe(`the delivery sweep on ${dialect}`, () => {
    // Nothing is delivered meanwhile: the callback refuses connections (port 9, discard).
    const server = deliveryServer(dialect, { config: { notify: { initialBackoffMs: 3_600_000 } } });

    test('queued notifications and the delivery row of a missing subscription go; others stay', async () => {
      const { db } = server.context;
      const kept = await subscribe(server, 'http://127.0.0.1:9/kept');
      const gone = randomUUID();
      await enqueueFor(db, kept, 3);
      await enqueueFor(db, gone, 4);
      await db.kysely.insertInto('notification_deliveries').values({ subscription_id: gone }).execute();

      assert.equal(await sweepOrphanStates(db), 5);
      const left = await db.kysely
        .selectFrom('notification_outbox')
        .select('subscription_id')
        .distinct()
        .execute();
      assert.deepEqual(
        left.map((r) => r.subscription_id),
        [kept],
      );
      const states = await db.kysely
        .selectFrom('notification_deliveries')
        .select('subscription_id')
        .where('subscription_id', '=', gone)
        .execute();
      assert.deepEqual(states, []);
    });
  });
}

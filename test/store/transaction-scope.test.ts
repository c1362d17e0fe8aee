/**
 * The root handle inside a transaction's callback fails at once with an error naming the
 * transaction handle, on SQLite (where it would wait forever for the connection the
 * transaction holds) and on PostgreSQL (where it would run outside the transaction). Work the
 * transaction merely starts, or that runs after it, uses the root handle as usual.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { onDeliveryWake, wakeDelivery } from '../../src/notify/delivery/signal.ts';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { inTransaction } from '../../src/store/db/transaction.ts';
import { RootHandleInTransactionError } from '../../src/store/db/transaction-scope.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';

/** Fails instead of hanging: a regression to the silent wait must not stall the suite. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms: the root handle hung`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const EXPLAINS = (error: unknown) =>
  error instanceof RootHandleInTransactionError && /use the transaction handle `trx`/.test(error.message);

const row = (id: string) => ({
  client_id: id,
  secret_hash: 'x',
  description: '',
  project_id: 'p',
  scopes: '[]',
  created_at: new Date().toISOString(),
});

for (const dialect of DIALECTS) {
  describe(`the root handle inside a transaction on ${dialect}`, () => {
    let db: Database;
    before(async () => {
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 4 });
      await migrate(db);
    });
    after(() => db.close());

    const clients = async (id: string) =>
      (await db.kysely.selectFrom('auth_clients').select('client_id').where('client_id', '=', id).execute())
        .length;

    test('a root query in the callback fails at once; the transaction rolls back', async () => {
      await assert.rejects(
        within(
          2000,
          inTransaction(db, async (trx) => {
            await trx.insertInto('auth_clients').values(row('scope-a')).execute();
            await db.kysely.selectFrom('auth_clients').select('client_id').execute();
          }),
        ),
        EXPLAINS,
      );
      // Rolled back, and the connection was handed back: the root handle works again.
      assert.equal(await within(2000, clients('scope-a')), 0);
    });

    test('raw SQL and a nested inTransaction on the root handle fail the same way', async () => {
      await assert.rejects(
        within(
          2000,
          inTransaction(db, () => sql`select 1`.execute(db.kysely)),
        ),
        EXPLAINS,
      );
      await assert.rejects(
        within(
          2000,
          inTransaction(db, () =>
            inTransaction(db, (inner) => inner.selectFrom('auth_clients').selectAll().execute()),
          ),
        ),
        EXPLAINS,
      );
    });

    test('the transaction handle works, and the root handle after the callback', async () => {
      let later: Promise<number> | undefined;
      await within(
        2000,
        inTransaction(db, async (trx) => {
          await trx.insertInto('auth_clients').values(row('scope-b')).execute();
          const seen = await trx
            .selectFrom('auth_clients')
            .select('client_id')
            .where('client_id', '=', 'scope-b')
            .execute();
          assert.equal(seen.length, 1);
          // Started here, run once the callback has ended: the scope is closed by then.
          later = new Promise((resolve, reject) =>
            setTimeout(() => clients('scope-b').then(resolve, reject), 50),
          );
        }),
      );
      assert.equal(await within(2000, later as Promise<number>), 1);
    });

    test('work the transaction only starts runs outside it (delivery wake-up)', async () => {
      let committed = false;
      let seen: Promise<number> | undefined;
      const unsubscribe = onDeliveryWake(() => {
        // As a delivery worker's look does: the root handle, not awaited by the transaction.
        seen ??= clients('scope-c').then((n) => {
          assert.ok(committed || dialect === 'postgres', 'SQLite runs it after the commit');
          return n;
        });
      });
      try {
        await within(
          2000,
          inTransaction(db, async (trx) => {
            await trx.insertInto('auth_clients').values(row('scope-c')).execute();
            wakeDelivery();
            await new Promise((r) => setTimeout(r, 50));
            committed = true;
          }),
        );
        // SQLite: it waited for the commit and sees the row; PostgreSQL: it ran on its own.
        const n = await within(2000, seen as Promise<number>);
        assert.equal(n, dialect === 'sqlite' ? 1 : 0);
      } finally {
        unsubscribe();
      }
    });
  });
}

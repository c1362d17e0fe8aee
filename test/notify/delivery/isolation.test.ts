/**
 * One slow receiver holds only its own delivery slot: the other subscribers are served while it
 * takes its time, and with notify.concurrency slots, work beyond them waits its turn rather than
 * being lost. On SQLite and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { deliveryServer, enqueueFor, range, seqsOf, subscribe, waitStatus } from './support.ts';

for (const dialect of DIALECTS) {
  describe(`slow subscribers on ${dialect}`, () => {
    const server = deliveryServer(dialect, {
      config: { notify: { requestTimeoutMs: 5000, concurrency: 3 } },
    });

    test('the others are served while a slow receiver holds its answer', async () => {
      let answered = 0;
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      // The slow receiver answers nothing until the test has seen the others served.
      const slow = await server.receiver(async () => {
        await held;
        answered++;
        return { status: 204 };
      });
      const fast = [await server.receiver(), await server.receiver()];
      const slowId = await subscribe(server, `${slow.url}/slow`);
      const fastIds = [
        await subscribe(server, `${fast[0].url}/a`),
        await subscribe(server, `${fast[1].url}/b`),
      ];
      await enqueueFor(server.context.db, slowId, 3);
      for (const id of fastIds) await enqueueFor(server.context.db, id, 100);
      for (const [i, r] of fast.entries()) {
        await r.waitFor((x) => seqsOf(x, fastIds[i]).length === 100, `fast subscriber ${i} served`);
        assert.deepEqual(seqsOf(r, fastIds[i]), range(0, 100));
      }
      // All of that while the slow one still sits on its first notification.
      assert.equal(answered, 0);
      assert.deepEqual(seqsOf(slow, slowId), [0]);
      release();
      await waitStatus(server, slowId, (s) => s.delivery.delivered === 3, 'the slow one done');
      assert.deepEqual(seqsOf(slow, slowId), [0, 1, 2]);
    });

    test('more subscriptions than slots: every one is served, each in order', async () => {
      const r = await server.receiver();
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await subscribe(server, `${r.url}/many/${i}`));
      for (const id of ids) await enqueueFor(server.context.db, id, 30);
      await r.waitFor((x) => x.notifications().length >= 240, 'every subscription served');
      for (const id of ids) assert.deepEqual(seqsOf(r, id), range(0, 30));
      // Nothing sent twice.
      assert.equal(new Set(r.notifications().map((n) => n.body?.id)).size, 240);
    });
  });
}

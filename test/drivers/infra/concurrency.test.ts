/**
 * Several processes share the simulated VIM through the database: placing servers from two
 * processes at once never overcommits a host, on SQLite (one file) and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { listHosts } from '../../../src/drivers/infra/sim/inventory.ts';
import { ensureTopology } from '../../../src/drivers/infra/sim/topology.ts';
import { openDatabase } from '../../../src/store/db/database.ts';
import { migrate } from '../../../src/store/db/migrate.ts';
import { DIALECTS, freshDatabaseUrl } from '../../support/databases.ts';
import { TIGHT_SIM } from './fixtures/tight-sim.ts';

const exec = promisify(execFile);
const FIXTURE = new URL('./fixtures/place-servers.ts', import.meta.url).pathname;

for (const dialect of DIALECTS) {
  describe(`simulated VIM shared by processes on ${dialect}`, () => {
    test('two processes placing 5 servers each into room for 6: exactly 6 placed, no host overcommitted', async () => {
      const url = await freshDatabaseUrl(dialect);
      const db = openDatabase({ url, poolSize: 2 });
      try {
        await migrate(db);
        await ensureTopology(db, TIGHT_SIM);
        const runs = await Promise.all(
          [1, 2].map(async () => JSON.parse((await exec(process.execPath, [FIXTURE, url, '5'])).stdout)),
        );
        const placed = runs.reduce((n, r) => n + r.placed, 0);
        const refused = runs.reduce((n, r) => n + r.noValidHost, 0);
        assert.equal(placed, 6, JSON.stringify(runs));
        assert.equal(refused, 4);
        const hosts = (await listHosts(db)).filter((h) => h.zone === 'tight');
        assert.deepEqual(
          hosts.map((h) => [h.used.vcpus, h.servers]),
          [
            [3, 3],
            [3, 3],
          ],
        );
      } finally {
        await db.close();
      }
    });
  });
}

/**
 * Several processes share the simulated VIM through the database: placing servers from three
 * processes at once never overcommits a host, and never refuses one while a host has room (a
 * host another process is claiming is skipped or waited for, not counted as full), on SQLite
 * (one file) and on PostgreSQL.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { listHosts } from '../../src/vims/drivers/sim/inventory.ts';
import { ensureTopology } from '../../src/vims/drivers/sim/topology.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';
import { TIGHT_SIM } from './fixtures/tight-sim.ts';

const exec = promisify(execFile);
const FIXTURE = new URL('./fixtures/place-servers.ts', import.meta.url).pathname;

/** The tight zone has two hosts with room for 3 m1.tiny each. */
const SCENARIOS = [
  { each: 4, placed: 6, refused: 6, use: [3, 3], name: 'more than there is room for' },
  { each: 2, placed: 6, refused: 0, use: [3, 3], name: 'exactly the room there is' },
];

for (const dialect of DIALECTS) {
  describe(`simulated VIM shared by processes on ${dialect}`, () => {
    for (const s of SCENARIOS) {
      test(`three processes placing ${s.each} servers each, ${s.name}: ${s.placed} placed, no host overcommitted`, async () => {
        const url = await freshDatabaseUrl(dialect);
        const db = openDatabase({ url, poolSize: 2 });
        try {
          await migrate(db);
          await ensureTopology(db, TIGHT_SIM);
          const runs = await Promise.all(
            [1, 2, 3].map(async () =>
              JSON.parse((await exec(process.execPath, [FIXTURE, url, String(s.each)])).stdout),
            ),
          );
          assert.equal(
            runs.reduce((n, r) => n + r.placed, 0),
            s.placed,
            JSON.stringify(runs),
          );
          assert.equal(
            runs.reduce((n, r) => n + r.noValidHost, 0),
            s.refused,
          );
          const hosts = (await listHosts(db)).filter((h) => h.zone === 'tight');
          assert.deepEqual(
            hosts.map((h) => [h.used.vcpus, h.servers]),
            s.use.map((n) => [n, n]),
          );
        } finally {
          await db.close();
        }
      });
    }
  });
}

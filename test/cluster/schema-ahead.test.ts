/**
 * Two releases side by side during a rolling upgrade: this release's replicas must work on the
 * schema the next release's replicas migrated to. The rule that makes it possible
 * (docs/cluster.md): a release only expands the schema — new tables, new columns with a default
 * or nullable, new indexes — which the previous release ignores; drops and renames come one
 * release later. The test builds that "N+1" schema — this release's migrations plus an expand
 * migration of each kind, recorded as a later release would record it — and runs this release's
 * replicas (API and worker) on it: they start without refusing the unknown migration or undoing
 * it, onboard a package and run an instantiate and a terminate; `bosun db migrate` leaves it as
 * it is. A database that has a newer migration but lacks one of this release's is refused.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import pg from 'pg';
import { openDatabase } from '../../src/store/db/database.ts';
import { migrate } from '../../src/store/db/migrate.ts';
import { MIGRATIONS } from '../../src/store/db/migrations/index.ts';
import { MAIN_SAMPLE } from '../http/vnflcm/lcm-support.ts';
import { onboard, sample } from '../http/vnfpkgm/support.ts';
import { freshDatabaseUrl } from '../support/databases.ts';
import { kill9, newServerEnv, serveProcess } from '../support/processes.ts';

const BOSUN = new URL('../../bin/bosun', import.meta.url).pathname;
const NEXT = '9000-next-release-expand';

/** What a next release may add: a table, columns with a default or nullable, an index. */
const expand: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('next_release_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('note', 'text')
      .execute();
    await db.schema
      .alterTable('vnf_instances_v2')
      .addColumn('next_release_tier', 'text', (c) => c.notNull().defaultTo('standard'))
      .execute();
    await db.schema.alterTable('vnf_lcm_op_occs_v2').addColumn('next_release_trace', 'text').execute();
    await db.schema
      .alterTable('vnf_packages')
      .addColumn('next_release_score', 'integer', (c) => c.defaultTo(0))
      .execute();
    await db.schema
      .createIndex('vnf_instances_v2_next_tier')
      .on('vnf_instances_v2')
      .column('next_release_tier')
      .execute();
  },
};

const H = { Version: '2.0.0', 'content-type': 'application/json' };

test("this release runs on the next release's expanded schema, and leaves it as it is", {
  timeout: 240_000,
}, async () => {
  const env = await newServerEnv('postgres', 'bosun-schema-ahead-');
  const db = openDatabase({ url: env.databaseUrl, poolSize: 2 });
  try {
    await migrate(db, { ...MIGRATIONS, [NEXT]: expand });
  } finally {
    await db.close();
  }
  const vars = { BOSUN_SIM_OPERATION_DELAY_MS: '0', BOSUN_LOG_ACCESS_LOG: 'false' };
  const api = await serveProcess(env, 'api', vars);
  const worker = await serveProcess(env, 'worker', vars);
  try {
    await api.logged(/database schema is newer than this release/);
    const pkg = await onboard(api.url, sample(MAIN_SAMPLE));
    assert.equal(pkg.onboardingState, 'ONBOARDED');
    const inst = await fetch(`${api.url}/vnflcm/v2/vnf_instances`, {
      method: 'POST',
      headers: H,
      body: JSON.stringify({ vnfdId: pkg.vnfdId }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    for (const [task, body] of [
      ['instantiate', { flavourId: 'simple' }],
      ['terminate', { terminationType: 'FORCEFUL' }],
    ] as const) {
      const res = await fetch(`${api.url}/vnflcm/v2/vnf_instances/${inst.id}/${task}`, {
        method: 'POST',
        headers: H,
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 202, await res.text());
      const op = (res.headers.get('location') ?? '').split('/').pop();
      let state = '';
      for (
        let i = 0;
        i < 600 && !['COMPLETED', 'FAILED_TEMP', 'FAILED', 'ROLLED_BACK'].includes(state);
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
        const got = await fetch(`${api.url}/vnflcm/v2/vnf_lcm_op_occs/${op}`, { headers: H });
        state = ((await got.json()) as { operationState: string }).operationState;
      }
      assert.equal(state, 'COMPLETED', task);
    }

    const migrated = await promisify(execFile)(BOSUN, ['db', 'migrate', '--json'], {
      env: { ...process.env, BOSUN_DATABASE_URL: env.databaseUrl, BOSUN_SECURITY_ENCRYPTION_KEY: env.key },
    });
    const outcome = JSON.parse(migrated.stdout) as { applied: string[]; newer: string[] };
    assert.deepEqual(outcome.applied, []);
    assert.deepEqual(outcome.newer, [NEXT]);

    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    try {
      const names = await client.query<{ name: string }>('select name from bosun_migrations');
      assert.ok(
        names.rows.some((r) => r.name === NEXT),
        'the newer migration is still recorded',
      );
      const tier = await client.query<{ next_release_tier: string }>(
        'select next_release_tier from vnf_instances_v2 where id = $1',
        [inst.id],
      );
      assert.equal(tier.rows[0].next_release_tier, 'standard', 'rows this release wrote got the new default');
      await client.query('select note from next_release_notes');
    } finally {
      await client.end();
    }
  } finally {
    await kill9(api.child);
    await kill9(worker.child);
  }
});

test("a database with a newer migration that lacks one of this release's is refused", async () => {
  const url = await freshDatabaseUrl('postgres');
  const names = Object.keys(MIGRATIONS);
  const db = openDatabase({ url, poolSize: 2 });
  try {
    // Everything but this release's last migration, then the next release's.
    const partial = Object.fromEntries(Object.entries(MIGRATIONS).filter(([n]) => n !== names.at(-1)));
    await migrate(db, partial);
    await sql`insert into bosun_migrations (name, timestamp) values (${NEXT}, ${new Date().toISOString()})`.execute(
      db.kysely,
    );
    await assert.rejects(migrate(db), new RegExp(`newer schema \\(${NEXT}\\) but lacks ${names.at(-1)}`));
  } finally {
    await db.close();
  }
});

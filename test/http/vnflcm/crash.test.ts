/**
 * Crash recovery with real processes: `bosun serve` killed with SIGKILL while an operation is
 * PROCESSING (a VIM call hangs) or ROLLING_BACK; a new server on the same database ends the op occ
 * FAILED_TEMP with an error saying what happened, and retry / rollback then finish the work
 * without duplicate or leftover resources. An op occ left STARTING by a dead worker ends
 * ROLLED_BACK (nothing was changed yet) and releases the instance.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { NodeSqliteDialect } from '../../../src/store/db/node-sqlite-dialect.ts';
import type { Tables } from '../../../src/store/db/tables.ts';
import { DIALECTS, type TestDialect } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { onboard, sample } from '../vnfpkgm/support.ts';
import {
  createInstance,
  H,
  INSTANTIATE,
  MAIN_SAMPLE,
  runTask,
  startTask,
  V2,
  waitOpOcc,
} from './lcm-support.ts';
import { type Env, kill9, newEnv, serve, stop } from './processes.ts';

const SIM = '/bosun/v1/sim';

async function faultUsed(url: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if ((await http<unknown[]>(url, 'GET', `${SIM}/faults`)).body.length === 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the injected fault was never used');
}

const servers = async (url: string, instanceId: string) =>
  (await http<unknown[]>(url, 'GET', `${SIM}/servers?instanceId=${instanceId}`)).body.length;

/** Runs an op occ task (202) and waits for the op occ to end in `state`. */
async function finishes(url: string, id: string, task: string, state: string): Promise<void> {
  const res = await http(url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/${task}`, { headers: H });
  assert.equal(res.status, 202, res.text);
  const ended = await waitOpOcc(url, id);
  assert.equal(ended.operationState, state, JSON.stringify(ended.error));
}

type Served = Awaited<ReturnType<typeof serve>>;

/**
 * A scenario across a crash: `first` runs on a server (with the main sample onboarded and an
 * instance created) and ends by SIGKILLing it; `then` runs on a new server on the same database.
 */
async function acrossCrash(
  dialect: TestDialect,
  first: (server: Served, instanceId: string) => Promise<void>,
  then: (server: Served, instanceId: string) => Promise<void>,
): Promise<void> {
  const env = await newEnv(dialect);
  const one = await serve(env, 'all');
  let two: Served | undefined;
  try {
    const pkg = await onboard(one.url, sample(MAIN_SAMPLE));
    const inst = await createInstance(one.url, pkg.vnfdId as string);
    await first(one, inst.id);
    await kill9(one.child);
    two = await serve(env, 'all');
    await then(two, inst.id);
  } finally {
    await kill9(one.child);
    if (two) await stop(two.child);
  }
}

function openDb(env: Env, dialect: TestDialect): Kysely<Tables> {
  if (dialect === 'sqlite')
    return new Kysely<Tables>({ dialect: new NodeSqliteDialect(env.databaseUrl.slice('sqlite:'.length)) });
  return new Kysely<Tables>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: env.databaseUrl, max: 1 }) }),
  });
}

for (const dialect of DIALECTS) {
  describe(`LCM crash recovery (${dialect})`, () => {
    test('killed while PROCESSING: FAILED_TEMP after restart, retry completes without duplicates', async () => {
      let id = '';
      await acrossCrash(
        dialect,
        async (first, instanceId) => {
          await http(first.url, 'POST', `${SIM}/faults`, {
            body: { kind: 'server.create', action: 'hang', timeoutMs: 600000 },
          });
          id = await startTask(first.url, instanceId, 'instantiate', INSTANTIATE);
          await faultUsed(first.url);
          assert.equal((await waitOpOcc(first.url, id, ['PROCESSING'])).operationState, 'PROCESSING');
        },
        async (second, instanceId) => {
          const failed = await waitOpOcc(second.url, id);
          assert.equal(failed.operationState, 'FAILED_TEMP');
          assert.equal(failed.error?.status, 500);
          assert.match(
            failed.error?.detail ?? '',
            /stopped: its lease expired .* while the operation was PROCESSING, in step infra\. Retry it/,
          );
          assert.equal(failed.error?.step, 'infra');
          // Still held: FAILED_TEMP blocks the instance.
          const busy = await http(second.url, 'POST', `${V2}/vnf_instances/${instanceId}/terminate`, {
            headers: H,
            body: { terminationType: 'FORCEFUL' },
          });
          assert.equal(busy.status, 409);
          await finishes(second.url, id, 'retry', 'COMPLETED');
          assert.equal(await servers(second.url, instanceId), 2);
          await second.logged(/recovered an LCM operation whose worker stopped/);
        },
      );
    });

    test('killed while ROLLING_BACK: FAILED_TEMP after restart, rollback finishes and leaves nothing', async () => {
      let id = '';
      await acrossCrash(
        dialect,
        async (first, instanceId) => {
          await http(first.url, 'POST', `${SIM}/faults`, {
            body: { kind: 'port.create', action: 'fail', count: 1 },
          });
          // Fail late: after servers exist (the second port fails only once the first VNFC is built).
          const failed = await runTask(first.url, instanceId, 'instantiate', INSTANTIATE);
          assert.equal(failed.operationState, 'FAILED_TEMP');
          id = failed.id;
          await http(first.url, 'POST', `${SIM}/faults`, {
            body: { kind: '*', action: 'hang', timeoutMs: 600000 },
          });
          assert.equal(
            (await http(first.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/rollback`, { headers: H })).status,
            202,
          );
          await faultUsed(first.url);
          assert.equal((await waitOpOcc(first.url, id, ['ROLLING_BACK'])).operationState, 'ROLLING_BACK');
        },
        async (second, instanceId) => {
          const again = await waitOpOcc(second.url, id);
          assert.equal(again.operationState, 'FAILED_TEMP');
          assert.match(
            again.error?.detail ?? '',
            /while the operation was ROLLING_BACK, in step rollback-infra\. Retry it/,
          );
          await finishes(second.url, id, 'rollback', 'ROLLED_BACK');
          assert.equal(await servers(second.url, instanceId), 0);
        },
      );
    });

    test('an op occ left STARTING by a dead worker is ROLLED_BACK and the instance released', async () => {
      const env = await newEnv(dialect);
      // An API-only server accepts the operation; nobody runs it.
      const api = await serve(env, 'api');
      let worker: Awaited<ReturnType<typeof serve>> | undefined;
      const db = openDb(env, dialect);
      try {
        const boot = await serve(env, 'worker');
        const pkg = await onboard(api.url, sample(MAIN_SAMPLE));
        await stop(boot.child);
        const inst = await createInstance(api.url, pkg.vnfdId as string);
        const id = await startTask(api.url, inst.id, 'instantiate', INSTANTIATE);
        // As a worker that claimed it and died during its grant would leave it.
        await db
          .updateTable('vnf_lcm_op_occs_v2')
          .set({
            job_state: 'running',
            lease_owner: 'dead-host:1:abc',
            lease_until: new Date(Date.now() - 1000).toISOString(),
            attempts: 1,
          })
          .where('id', '=', id)
          .execute();
        worker = await serve(env, 'worker');
        const rolled = await waitOpOcc(api.url, id);
        assert.equal(rolled.operationState, 'ROLLED_BACK');
        assert.match(
          rolled.error?.detail ?? '',
          /\(dead-host:1:abc\) stopped: its lease expired .* while the operation was STARTING\. Nothing had been changed yet/,
        );
        const again = await runTask(api.url, inst.id, 'instantiate', INSTANTIATE);
        assert.equal(again.operationState, 'COMPLETED', JSON.stringify(again.error));
      } finally {
        await db.destroy();
        await stop(api.child);
        if (worker) await stop(worker.child);
      }
    });
  });
}

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
      const env = await newEnv(dialect);
      const first = await serve(env, 'all');
      let second: Awaited<ReturnType<typeof serve>> | undefined;
      try {
        const pkg = await onboard(first.url, sample(MAIN_SAMPLE));
        const inst = await createInstance(first.url, pkg.vnfdId as string);
        await http(first.url, 'POST', `${SIM}/faults`, {
          body: { kind: 'server.create', action: 'hang', timeoutMs: 600000 },
        });
        const id = await startTask(first.url, inst.id, 'instantiate', INSTANTIATE);
        await faultUsed(first.url);
        assert.equal((await waitOpOcc(first.url, id, ['PROCESSING'])).operationState, 'PROCESSING');
        await kill9(first.child);

        second = await serve(env, 'all');
        const failed = await waitOpOcc(second.url, id);
        assert.equal(failed.operationState, 'FAILED_TEMP');
        assert.equal(failed.error?.status, 500);
        assert.match(
          failed.error?.detail ?? '',
          /stopped: its lease expired .* while the operation was PROCESSING, in step infra\. Retry it/,
        );
        assert.equal(failed.error?.step, 'infra');
        // Still held: FAILED_TEMP blocks the instance.
        const busy = await http(second.url, 'POST', `${V2}/vnf_instances/${inst.id}/terminate`, {
          headers: H,
          body: { terminationType: 'FORCEFUL' },
        });
        assert.equal(busy.status, 409);
        assert.equal(
          (await http(second.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/retry`, { headers: H })).status,
          202,
        );
        const done = await waitOpOcc(second.url, id);
        assert.equal(done.operationState, 'COMPLETED', JSON.stringify(done.error));
        assert.equal(await servers(second.url, inst.id), 2);
        assert.match(second.output(), /recovered an LCM operation whose worker stopped/);
      } finally {
        await kill9(first.child);
        if (second) await stop(second.child);
      }
    });

    test('killed while ROLLING_BACK: FAILED_TEMP after restart, rollback finishes and leaves nothing', async () => {
      const env = await newEnv(dialect);
      const first = await serve(env, 'all');
      let second: Awaited<ReturnType<typeof serve>> | undefined;
      try {
        const pkg = await onboard(first.url, sample(MAIN_SAMPLE));
        const inst = await createInstance(first.url, pkg.vnfdId as string);
        await http(first.url, 'POST', `${SIM}/faults`, {
          body: { kind: 'port.create', action: 'fail', count: 1 },
        });
        // Fail late: after servers exist (the second port fails only once the first VNFC is built).
        const failed = await runTask(first.url, inst.id, 'instantiate', INSTANTIATE);
        assert.equal(failed.operationState, 'FAILED_TEMP');
        await http(first.url, 'POST', `${SIM}/faults`, {
          body: { kind: '*', action: 'hang', timeoutMs: 600000 },
        });
        assert.equal(
          (await http(first.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, { headers: H }))
            .status,
          202,
        );
        await faultUsed(first.url);
        assert.equal(
          (await waitOpOcc(first.url, failed.id, ['ROLLING_BACK'])).operationState,
          'ROLLING_BACK',
        );
        await kill9(first.child);

        second = await serve(env, 'all');
        const again = await waitOpOcc(second.url, failed.id);
        assert.equal(again.operationState, 'FAILED_TEMP');
        assert.match(
          again.error?.detail ?? '',
          /while the operation was ROLLING_BACK, in step rollback-infra\. Retry it/,
        );
        assert.equal(
          (await http(second.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, { headers: H }))
            .status,
          202,
        );
        const rolled = await waitOpOcc(second.url, failed.id);
        assert.equal(rolled.operationState, 'ROLLED_BACK', JSON.stringify(rolled.error));
        assert.equal(await servers(second.url, inst.id), 0);
      } finally {
        await kill9(first.child);
        if (second) await stop(second.child);
      }
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

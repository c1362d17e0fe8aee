/**
 * The queue operations of store/queue/ over their table descriptors, on a table of their own:
 * a claimed job is completed or failed only by the worker holding it, with the row's change in
 * the same statement and only from the state its row's machine expects; a failed job is claimable
 * again (from its retry time where the queue backs off); a job this process begins itself is
 * held from its row's expected state by one request only; a lease row is written only for a job
 * that exists and claimed by one worker at a time.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../../src/store/db/database.ts';
import { beginJob } from '../../src/store/queue/begin.ts';
import { claimableJobs, claimJob, claimJobs } from '../../src/store/queue/claim.ts';
import { claimLease } from '../../src/store/queue/claim-lease.ts';
import { completeJob } from '../../src/store/queue/complete.ts';
import { failJob } from '../../src/store/queue/fail.ts';
import { renewJobLease } from '../../src/store/queue/heartbeat.ts';
import type { JobTable, LeaseTable } from '../../src/store/queue/table.ts';
import { DIALECTS, freshDatabaseUrl } from '../support/databases.ts';

const JOBS: JobTable = {
  table: 'queue_test_jobs',
  key: 'id',
  leasedStates: ['running'],
  reclaimExpired: false,
  versioned: true,
};
const BACKING_OFF: JobTable = { ...JOBS, notBefore: 'retry_at' };
const LEASES: LeaseTable = {
  table: 'queue_test_leases',
  key: 'job_id',
  jobs: { table: 'queue_test_jobs', key: 'id' },
  notBefore: 'retry_at',
  versioned: false,
};
const LEASE_MS = 60_000;
const hourFromNow = () => new Date(Date.now() + 3_600_000).toISOString();
const secondAgo = () => new Date(Date.now() - 1000).toISOString();

interface JobRow {
  state: string;
  job_state: string | null;
  lease_owner: string | null;
  lease_until: string | null;
  retry_at: string | null;
  version: number;
}

for (const dialect of DIALECTS) {
  describe(`queue operations on ${dialect}`, () => {
    let db: Database;
    const row = async (id: string) =>
      (await sql<JobRow>`select * from queue_test_jobs where id = ${id}`.execute(db.kysely)).rows[0];
    const lease = async (id: string) =>
      (
        await sql<{ lease_owner: string | null; retry_at: string | null }>`
          select lease_owner, retry_at from queue_test_leases where job_id = ${id}`.execute(db.kysely)
      ).rows[0];
    const claimable = async (jobs: JobTable) =>
      (await claimableJobs(db.kysely, jobs, 10, dialect === 'postgres')).sort();

    before(async () => {
      db = openDatabase({ url: await freshDatabaseUrl(dialect), poolSize: 2 });
      await sql`create table queue_test_jobs (
        id text primary key, state text not null, job_state text, lease_owner text, lease_until text,
        retry_at text, attempts integer not null default 0, updated_at text not null,
        version integer not null default 1)`.execute(db.kysely);
      await sql`create table queue_test_leases (
        job_id text primary key, lease_owner text, lease_until text, retry_at text)`.execute(db.kysely);
    });
    after(() => db.close());
    beforeEach(async () => {
      await sql`delete from queue_test_leases`.execute(db.kysely);
      await sql`delete from queue_test_jobs`.execute(db.kysely);
      for (const id of ['a', 'b'])
        await sql`insert into queue_test_jobs (id, state, job_state, updated_at)
          values (${id}, 'WAITING', 'queued', ${new Date().toISOString()})`.execute(db.kysely);
    });

    test('a set-based claim takes each queued job once across racing workers, never one its process runs', async () => {
      for (const id of ['c', 'd', 'e', 'f'])
        await sql`insert into queue_test_jobs (id, state, job_state, updated_at)
          values (${id}, 'WAITING', 'queued', ${new Date().toISOString()})`.execute(db.kysely);
      const skip = dialect === 'postgres';
      const claims = await Promise.all(
        ['w1', 'w2', 'w3'].map((owner) => claimJobs(db.kysely, JOBS, 3, owner, LEASE_MS, skip)),
      );
      const all = claims.flat().sort();
      assert.deepEqual(all, ['a', 'b', 'c', 'd', 'e', 'f'], 'every job claimed, none twice');
      for (const [i, ids] of claims.entries()) {
        assert.ok(ids.length <= 3);
        for (const id of ids) assert.equal((await row(id)).lease_owner, `w${i + 1}`);
      }
      assert.deepEqual(
        await claimJobs(db.kysely, JOBS, 10, 'w4', LEASE_MS, skip),
        [],
        'nothing left to claim',
      );
      // A queue that reclaims expired leases: its own running job is not claimed again.
      const reclaiming: JobTable = { ...JOBS, reclaimExpired: true };
      await sql`update queue_test_jobs set lease_until = ${secondAgo()} where id in ('a', 'b')`.execute(
        db.kysely,
      );
      assert.deepEqual(await claimJobs(db.kysely, reclaiming, 10, 'w5', LEASE_MS, skip, ['a']), ['b']);
    });

    test('complete: only the holder ends the job, with its row change, from the expected state', async () => {
      assert.equal(await claimJob(db.kysely, JOBS, 'a', 'w1', LEASE_MS), true);
      const done = { set: { state: 'DONE' }, from: { column: 'state', states: ['WAITING'] } };
      assert.equal(await completeJob(db.kysely, JOBS, 'a', 'w2', done), false, 'not the holder');
      const elsewhere = { set: { state: 'DONE' }, from: { column: 'state', states: ['OTHER'] } };
      assert.equal(await completeJob(db.kysely, JOBS, 'a', 'w1', elsewhere), false, 'not in the state');
      assert.equal((await row('a'))?.job_state, 'running');
      assert.equal(await completeJob(db.kysely, JOBS, 'a', 'w1', done), true);
      const after = await row('a');
      assert.deepEqual(
        { state: after?.state, job: after?.job_state, owner: after?.lease_owner, until: after?.lease_until },
        { state: 'DONE', job: null, owner: null, until: null },
      );
      assert.equal(Number(after?.version), 2, 'a versioned row counts the change');
      assert.equal(await completeJob(db.kysely, JOBS, 'a', 'w1', done), false, 'ended once');
      assert.equal(await renewJobLease(db.kysely, JOBS, 'a', 'w1', LEASE_MS), false);
      assert.deepEqual(await claimable(JOBS), ['b']);
    });

    test('fail: the job goes back to the queue at once, claimable by another worker', async () => {
      assert.equal(await claimJob(db.kysely, JOBS, 'a', 'w1', LEASE_MS), true);
      assert.deepEqual(await claimable(JOBS), ['b']);
      assert.equal(await failJob(db.kysely, JOBS, 'a', 'w2'), false, 'not the holder');
      assert.equal(await failJob(db.kysely, JOBS, 'a', 'w1', { change: { set: { state: 'RESUME' } } }), true);
      const after = await row('a');
      assert.deepEqual(
        { state: after?.state, job: after?.job_state, owner: after?.lease_owner },
        { state: 'RESUME', job: 'queued', owner: null },
      );
      assert.deepEqual(await claimable(JOBS), ['a', 'b']);
      assert.equal(await claimJob(db.kysely, JOBS, 'a', 'w2', LEASE_MS), true);
    });

    test('fail with a retry time: not claimable before it where the queue backs off', async () => {
      assert.equal(await claimJob(db.kysely, BACKING_OFF, 'a', 'w1', LEASE_MS), true);
      assert.equal(await failJob(db.kysely, BACKING_OFF, 'a', 'w1', { retryAt: hourFromNow() }), true);
      assert.deepEqual(await claimable(BACKING_OFF), ['b']);
      assert.equal(await claimJob(db.kysely, BACKING_OFF, 'a', 'w2', LEASE_MS), false);
      await sql`update queue_test_jobs set retry_at = ${secondAgo()} where id = 'a'`.execute(db.kysely);
      assert.deepEqual(await claimable(BACKING_OFF), ['a', 'b']);
    });

    test('a retry time on a queue that does not back off is refused, nothing changed', async () => {
      assert.equal(await claimJob(db.kysely, JOBS, 'a', 'w1', LEASE_MS), true);
      await assert.rejects(
        failJob(db.kysely, JOBS, 'a', 'w1', { retryAt: hourFromNow() }),
        /does not back off/,
      );
      assert.equal((await row('a'))?.lease_owner, 'w1');
    });

    test('begin: a job held from the start, from the expected state only, by one request', async () => {
      const begin = (owner: string) =>
        beginJob(db.kysely, JOBS, 'a', owner, LEASE_MS, 'running', {
          set: { state: 'STREAMING' },
          from: { column: 'state', states: ['WAITING'] },
        });
      assert.equal(await begin('w1'), true);
      assert.equal(await begin('w2'), false, 'no longer WAITING');
      const held = await row('a');
      assert.deepEqual(
        { state: held?.state, job: held?.job_state, owner: held?.lease_owner },
        { state: 'STREAMING', job: 'running', owner: 'w1' },
      );
      assert.equal(await renewJobLease(db.kysely, JOBS, 'a', 'w1', LEASE_MS), true);
      await assert.rejects(
        beginJob(db.kysely, JOBS, 'b', 'w1', LEASE_MS, 'queued', {}),
        /queued is not a leased state/,
      );
      assert.equal((await row('b'))?.job_state, 'queued');
    });

    test('lease rows: written only for a job that exists, one holder at a time, back-off respected', async () => {
      const keyShare = dialect === 'postgres';
      assert.equal(await claimLease(db.kysely, LEASES, 'gone', 'w1', LEASE_MS, keyShare), false);
      assert.equal(await lease('gone'), undefined, 'no lease row for a job that does not exist');
      assert.equal(await claimLease(db.kysely, LEASES, 'a', 'w1', LEASE_MS, keyShare), true);
      assert.equal(await claimLease(db.kysely, LEASES, 'a', 'w2', LEASE_MS, keyShare), false, 'held');
      assert.equal(await renewJobLease(db.kysely, LEASES, 'a', 'w1', LEASE_MS), true);
      assert.equal(await failJob(db.kysely, LEASES, 'a', 'w1', { retryAt: hourFromNow() }), true);
      assert.equal((await lease('a'))?.lease_owner, null);
      assert.equal(await claimLease(db.kysely, LEASES, 'a', 'w2', LEASE_MS, keyShare), false, 'backing off');
      await sql`update queue_test_leases set retry_at = ${secondAgo()} where job_id = 'a'`.execute(db.kysely);
      assert.equal(await claimLease(db.kysely, LEASES, 'a', 'w2', LEASE_MS, keyShare), true);
      assert.equal(await renewJobLease(db.kysely, LEASES, 'a', 'w1', LEASE_MS), false, 'w1 lost it');
      assert.equal(await completeJob(db.kysely, LEASES, 'a', 'w2'), true);
      assert.equal(await claimLease(db.kysely, LEASES, 'a', 'w1', LEASE_MS, keyShare), true);
    });

    test('an expired lease row is claimed by the next worker', async () => {
      const keyShare = dialect === 'postgres';
      assert.equal(await claimLease(db.kysely, LEASES, 'b', 'w1', LEASE_MS, keyShare), true);
      await sql`update queue_test_leases set lease_until = ${secondAgo()} where job_id = 'b'`.execute(
        db.kysely,
      );
      assert.equal(await claimLease(db.kysely, LEASES, 'b', 'w2', LEASE_MS, keyShare), true);
      assert.equal((await lease('b'))?.lease_owner, 'w2');
    });
  });
}

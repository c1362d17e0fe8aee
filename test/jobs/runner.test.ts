/**
 * The job runner on its own (no database, a queue in memory): at most `concurrency` jobs at
 * once, a job that ends frees its slot and the next is claimed, a job another worker claimed
 * first is skipped, a job that throws is logged and frees its slot, stop() claims nothing more
 * and waits for the jobs in progress (aborting them after the grace period), and a job whose
 * lease renewal fails sees its signal abort.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { type Job, JobRunner } from '../../src/jobs/runner.ts';

/** A queue of `ids` whose runs the test ends one by one. */
function memoryQueue(
  ids: string[],
  options: {
    takenElsewhere?: string[];
    crashing?: string[];
    lost?: string[];
    concurrency?: number;
    stopGraceMs?: number;
  } = {},
) {
  const queued = [...ids];
  const events: string[] = [];
  const ends = new Map<string, () => void>();
  const jobs = new Map<string, Job>();
  let started: () => void = () => {};
  const queue = {
    name: 'test worker',
    concurrency: options.concurrency ?? 1,
    stopGraceMs: options.stopGraceMs ?? 50,
    renew: async (id: string) => !options.lost?.includes(id),
    recover: async () => {
      events.push('recover');
    },
    claimable: async (limit: number) => queued.slice(0, limit),
    claim: async (id: string) => {
      queued.splice(queued.indexOf(id), 1);
      return !options.takenElsewhere?.includes(id);
    },
    run: (job: Job) =>
      new Promise<void>((resolve, reject) => {
        const id = job.id;
        events.push(`run ${id}`);
        jobs.set(id, job);
        ends.set(id, () => (options.crashing?.includes(id) ? reject(new Error('boom')) : resolve()));
        job.signal.addEventListener('abort', () => {
          events.push(`aborted ${id}: ${(job.signal.reason as Error).message}`);
          resolve();
        });
        started();
      }),
  };
  /** Resolves once `n` runs have started. */
  const runsStarted = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (events.filter((e) => e.startsWith('run')).length >= n) resolve();
      };
      started = check;
      check();
    });
  return { queue, events, ends, jobs, runsStarted };
}

function runnerOf(queue: ReturnType<typeof memoryQueue>['queue'], concurrency: number, leaseMs = 60_000) {
  const errors: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => errors.push(line) });
  const runner = new JobRunner({ ...queue, concurrency }, { intervalMs: 60_000, leaseMs, logger });
  return { runner, errors };
}

describe('JobRunner', () => {
  test('runs at most `concurrency` jobs; one ending frees its slot for the next', async () => {
    const q = memoryQueue(['a', 'b', 'c']);
    const { runner } = runnerOf(q.queue, 2);
    runner.start();
    await q.runsStarted(2);
    assert.deepEqual(q.events, ['recover', 'run a', 'run b']);
    q.ends.get('a')?.();
    await q.runsStarted(3);
    assert.ok(q.events.includes('run c'));
    q.ends.get('b')?.();
    q.ends.get('c')?.();
    await runner.stop();
  });

  test('a job another worker claimed first is not run', async () => {
    const q = memoryQueue(['a', 'b'], { takenElsewhere: ['a'] });
    const { runner } = runnerOf(q.queue, 2);
    runner.start();
    await q.runsStarted(1);
    q.ends.get('b')?.();
    await runner.stop();
    assert.deepEqual(
      q.events.filter((e) => e.startsWith('run')),
      ['run b'],
    );
  });

  test('a job that throws is logged and frees its slot', async () => {
    const q = memoryQueue(['a', 'b'], { crashing: ['a'] });
    const { runner, errors } = runnerOf(q.queue, 1);
    runner.start();
    await q.runsStarted(1);
    q.ends.get('a')?.();
    await q.runsStarted(2);
    assert.equal(errors.length, 1);
    assert.match(errors[0] ?? '', /test worker job crashed/);
    q.ends.get('b')?.();
    await runner.stop();
  });

  test('stop() claims nothing more and waits for the jobs in progress', async () => {
    // A grace no stalled event loop outlasts: this test is about waiting, not aborting.
    const q = memoryQueue(['a', 'b'], { stopGraceMs: 60_000 });
    const { runner } = runnerOf(q.queue, 1);
    runner.start();
    await q.runsStarted(1);
    let stopped = false;
    const stopping = runner.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stopped, false);
    q.ends.get('a')?.();
    await stopping;
    assert.equal(stopped, true);
    assert.equal(runner.stopped, true);
    assert.deepEqual(
      q.events.filter((e) => e.startsWith('run')),
      ['run a'],
    );
  });

  test('stop() aborts the jobs still running after the grace period, then resolves', async () => {
    const q = memoryQueue(['a']);
    const { runner } = runnerOf(q.queue, 1);
    runner.start();
    await q.runsStarted(1);
    assert.equal(q.jobs.get('a')?.stopping(), false);
    await runner.stop();
    assert.equal(q.jobs.get('a')?.stopping(), true);
    assert.deepEqual(q.events.slice(-1), ['aborted a: worker stopped']);
  });

  test("a job whose lease renewal fails sees its signal abort; the others' leases hold", async () => {
    const q = memoryQueue(['a', 'b'], { lost: ['a'] });
    const { runner } = runnerOf(q.queue, 2, 150);
    runner.start();
    await q.runsStarted(2);
    await new Promise<void>((resolve) => q.jobs.get('a')?.signal.addEventListener('abort', () => resolve()));
    assert.ok(q.events.includes('aborted a: lease lost'));
    assert.equal(q.jobs.get('a')?.leaseValid(), false);
    assert.equal(q.jobs.get('b')?.signal.aborted, false);
    q.ends.get('b')?.();
    await runner.stop();
  });
});

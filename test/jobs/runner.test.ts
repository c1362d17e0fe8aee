/**
 * The job runner on its own (no database, a queue in memory): at most `concurrency` jobs at
 * once, a job that ends frees its slot and the next is claimed, a job another worker claimed
 * first is skipped, a job that throws is logged and frees its slot, and stop() claims nothing
 * more and waits for the jobs in progress.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { JobRunner } from '../../src/jobs/runner.ts';

/** A queue of `ids` whose runs the test ends one by one. */
function memoryQueue(ids: string[], options: { takenElsewhere?: string[]; crashing?: string[] } = {}) {
  const queued = [...ids];
  const events: string[] = [];
  const ends = new Map<string, () => void>();
  let started: () => void = () => {};
  const queue = {
    recover: async () => {
      events.push('recover');
    },
    claimable: async (limit: number) => queued.slice(0, limit),
    claim: async (id: string) => {
      queued.splice(queued.indexOf(id), 1);
      return !options.takenElsewhere?.includes(id);
    },
    run: (id: string) =>
      new Promise<void>((resolve, reject) => {
        events.push(`run ${id}`);
        ends.set(id, () => (options.crashing?.includes(id) ? reject(new Error('boom')) : resolve()));
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
  return { queue, events, ends, runsStarted };
}

function runnerOf(queue: ReturnType<typeof memoryQueue>['queue'], concurrency: number) {
  const errors: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => errors.push(line) });
  const runner = new JobRunner(queue, { concurrency, intervalMs: 60_000, logger, name: 'test worker' });
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
    const q = memoryQueue(['a', 'b']);
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
});

/**
 * The janitor on its own (sweeps in memory): every sweep runs at start, one after the other; a
 * sweep that fails is logged and the next still runs; what a sweep removed is logged; stop()
 * aborts the sweep in progress through its signal and waits for it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pino from 'pino';
import { Janitor, type Sweep } from '../../src/jobs/janitor.ts';

function logged() {
  const lines: { msg: string; sweep?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, logger };
}

describe('Janitor', () => {
  test('runs every sweep in order; a failing one is logged and the next still runs', async () => {
    const ran: string[] = [];
    let done: () => void = () => {};
    const finished = new Promise<void>((resolve) => (done = resolve));
    const sweeps: Sweep[] = [
      {
        name: 'first sweep',
        run: async () => {
          ran.push('first');
          return ['a', 'b'];
        },
      },
      {
        name: 'failing sweep',
        run: async () => {
          ran.push('failing');
          throw new Error('no database');
        },
      },
      {
        name: 'last sweep',
        run: async () => {
          ran.push('last');
          done();
          return 0;
        },
      },
    ];
    const { lines, logger } = logged();
    const janitor = new Janitor(sweeps, { intervalMs: 60_000, logger });
    janitor.start();
    await finished;
    await janitor.stop();
    assert.deepEqual(ran, ['first', 'failing', 'last']);
    assert.deepEqual(
      lines.map((l) => [l.sweep, l.msg]),
      [
        ['first sweep', 'first sweep removed leftovers'],
        ['failing sweep', 'failing sweep failed'],
      ],
    );
  });

  test('stop() aborts the sweep in progress and waits for it; the next sweeps do not run', async () => {
    const ran: string[] = [];
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const sweeps: Sweep[] = [
      {
        name: 'long sweep',
        run: (signal) =>
          new Promise((_resolve, reject) => {
            ran.push('long');
            started();
            signal.addEventListener('abort', () => reject(signal.reason));
          }),
      },
      {
        name: 'next sweep',
        run: async () => {
          ran.push('next');
          return 0;
        },
      },
    ];
    const { lines, logger } = logged();
    const janitor = new Janitor(sweeps, { intervalMs: 60_000, logger });
    janitor.start();
    await running;
    await janitor.stop();
    assert.deepEqual(ran, ['long']);
    assert.deepEqual(lines, [], 'an abort at stop is not a failure');
  });
});

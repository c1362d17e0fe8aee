/**
 * The workers' poll loop on its own (no database): one look at a time, a wake during a look runs
 * one more right after it, a failed look is logged and the loop goes on, stop() waits for the look
 * in progress and nothing runs after it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { PollLoop } from '../../src/jobs/poll-loop.ts';

/** A loop whose looks the test releases one by one. */
function scripted(intervalMs = 60_000) {
  const errors: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => errors.push(line) });
  let looks = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let fail = false;
  const releases: (() => void)[] = [];
  const loop = new PollLoop({
    intervalMs,
    logger,
    failure: 'test poll failed',
    tick: async () => {
      looks++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise<void>((resolve) => releases.push(resolve));
      inFlight--;
      if (fail) throw new Error('boom');
    },
  });
  const release = async () => {
    releases.shift()?.();
    await sleep(5);
  };
  return {
    loop,
    release,
    errors,
    looks: () => looks,
    maxInFlight: () => maxInFlight,
    failNext: (value: boolean) => {
      fail = value;
    },
  };
}

describe('poll loop', () => {
  test('wakes during a look run one more look after it, never two at once', async () => {
    const s = scripted();
    assert.equal(s.loop.stopped, true);
    s.loop.wake();
    assert.equal(s.looks(), 0, 'a loop that was not started does not look');
    s.loop.start();
    assert.equal(s.loop.stopped, false);
    assert.equal(s.looks(), 1);
    s.loop.wake();
    s.loop.wake();
    assert.equal(s.looks(), 1);
    await s.release();
    assert.equal(s.looks(), 2, 'the wakes during the first look gave exactly one more');
    await s.release();
    assert.equal(s.looks(), 2, 'then it waits for the interval');
    assert.equal(s.maxInFlight(), 1);
    await s.loop.stop();
  });

  test('looks again every interval', async () => {
    const s = scripted(20);
    s.loop.start();
    await s.release();
    await sleep(40);
    assert.equal(s.looks(), 2);
    const stopping = s.loop.stop();
    await s.release();
    await stopping;
  });

  test('a failed look is logged and the loop goes on', async () => {
    const s = scripted(20);
    s.failNext(true);
    s.loop.start();
    await s.release();
    assert.equal(s.errors.length, 1);
    assert.match(s.errors[0], /test poll failed/);
    assert.match(s.errors[0], /boom/);
    s.failNext(false);
    await sleep(40);
    assert.equal(s.looks(), 2, 'the next interval looked again');
    const stopping = s.loop.stop();
    await s.release();
    await stopping;
  });

  test('stop() stops at once and resolves when the look in progress ends', async () => {
    const s = scripted(10);
    s.loop.start();
    let stopped = false;
    const stopping = s.loop.stop().then(() => {
      stopped = true;
    });
    assert.equal(s.loop.stopped, true);
    s.loop.wake();
    await sleep(5);
    assert.equal(stopped, false, 'the look is still running');
    await s.release();
    await stopping;
    assert.equal(stopped, true);
    await sleep(30);
    assert.equal(s.looks(), 1, 'no look after stop, neither from the wake nor from the interval');
  });
});

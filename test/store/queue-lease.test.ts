/**
 * The held job lease on its own (no database, the interval's clock mocked): renewed every third
 * of the lease, its signal aborts once a renewal says the lease is gone, a renewal that throws is
 * tried again at the next beat, one renewal runs at a time, stop() ends the renewals, and it is
 * valid only while renewals keep it within three quarters of the lease by this process's clock.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';
import { HeldLease } from '../../src/store/queue/lease.ts';

const LEASE_MS = 3000;
const BEAT_MS = LEASE_MS / 3;

/** Lets the renewal a beat started settle (setImmediate is not mocked). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function beat(): Promise<void> {
  mock.timers.tick(BEAT_MS);
  await settle();
}

describe('HeldLease', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setInterval'] }));
  afterEach(() => mock.timers.reset());

  test('renews every third of the lease while it is held', async () => {
    let renewals = 0;
    const lease = new HeldLease(LEASE_MS, async () => {
      renewals++;
      return true;
    });
    mock.timers.tick(BEAT_MS - 1);
    await settle();
    assert.equal(renewals, 0);
    await beat();
    await beat();
    assert.equal(renewals, 2);
    assert.equal(lease.lost, false);
    assert.equal(lease.signal.aborted, false);
    lease.stop();
  });

  test('aborts its signal and stops renewing once the lease is gone', async () => {
    const answers = [true, false];
    let renewals = 0;
    const lease = new HeldLease(LEASE_MS, async () => {
      renewals++;
      return answers.shift() ?? true;
    });
    await beat();
    assert.equal(lease.lost, false);
    await beat();
    assert.equal(lease.lost, true);
    assert.match((lease.signal.reason as Error).message, /lease lost/);
    await beat();
    assert.equal(renewals, 2);
  });

  test('a renewal that fails is tried again at the next beat, without losing the lease', async () => {
    let renewals = 0;
    const lease = new HeldLease(LEASE_MS, async () => {
      renewals++;
      if (renewals === 1) throw new Error('connection reset');
      return true;
    });
    await beat();
    assert.equal(lease.lost, false);
    await beat();
    assert.equal(renewals, 2);
    assert.equal(lease.lost, false);
    lease.stop();
  });

  test('one renewal at a time: a beat while one is unanswered is skipped', async () => {
    let renewals = 0;
    let answer: (held: boolean) => void = () => {};
    const lease = new HeldLease(LEASE_MS, () => {
      renewals++;
      return new Promise<boolean>((resolve) => {
        answer = resolve;
      });
    });
    await beat();
    await beat();
    assert.equal(renewals, 1);
    answer(true);
    await settle();
    await beat();
    assert.equal(renewals, 2);
    lease.stop();
  });

  test('stop() ends the renewals', async () => {
    let renewals = 0;
    const lease = new HeldLease(LEASE_MS, async () => {
      renewals++;
      return true;
    });
    await beat();
    lease.stop();
    await beat();
    await beat();
    assert.equal(renewals, 1);
    assert.equal(lease.lost, false);
  });

  test('valid while renewals succeed; not once three quarters of the lease pass without one', async () => {
    mock.timers.reset();
    mock.timers.enable({ apis: ['setInterval', 'Date'], now: 1_000_000 });
    let answering = true;
    const lease = new HeldLease(LEASE_MS, async () => {
      if (!answering) throw new Error('connection reset');
      return true;
    });
    assert.equal(lease.valid, true);
    for (let i = 0; i < 4; i++) await beat();
    assert.equal(lease.valid, true, 'renewed: valid past the first three quarters');
    answering = false;
    await beat();
    assert.equal(lease.valid, true, 'one beat without a renewal is within the margin');
    await beat();
    await beat();
    assert.equal(lease.lost, false, 'nobody said it is gone');
    assert.equal(lease.valid, false, 'but it may have run out: work that must not overlap stops');
    lease.stop();
  });
});

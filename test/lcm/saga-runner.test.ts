/**
 * The generic saga runner: each step's output is recorded before the next starts, a second run
 * resumes at the first step not done (the done ones are not run again, their outputs are kept),
 * and compensation undoes, in reverse, only the steps that ran and have a compensation.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyProgress, type Progress } from '../../src/lcm/progress.ts';
import { compensate, runForward, type SagaControl, StepFailed } from '../../src/lcm/saga/runner.ts';
import { defineStep } from '../../src/lcm/saga/step.ts';

interface Ctx {
  calls: string[];
  failAt?: string;
}

const saved: string[] = [];
const control = (progress: Progress): SagaControl => ({
  boundary() {},
  async save() {
    saved.push(JSON.stringify(progress));
  },
});

const step = <K extends 'start-hook' | 'infra' | 'end-hook'>(name: K, compensated = false) =>
  defineStep<Ctx, K>({
    name,
    async invoke(ctx) {
      ctx.calls.push(name);
      if (ctx.failAt === name) throw new Error(`${name} broke`);
      return undefined;
    },
    ...(compensated ? { compensate: async (ctx: Ctx) => void ctx.calls.push(`undo ${name}`) } : {}),
  });

const ANSWER = { hook: 'instantiate_start', output: { vnfInstance: { metadata: { a: 1 } } }, durationMs: 3 };

/** A start hook that answers: its output is what the runner must record. */
const answeringHook = defineStep<Ctx, 'start-hook'>({
  name: 'start-hook',
  async invoke(ctx) {
    ctx.calls.push('start-hook');
    return ANSWER;
  },
});

const STEPS = [answeringHook, step('infra', true), step('end-hook')];

describe('saga runner', () => {
  test('a failed step stops the run; the next run resumes at it, keeping what the done steps recorded', async () => {
    const progress = emptyProgress();
    const ctx: Ctx = { calls: [], failAt: 'end-hook' };
    await assert.rejects(runForward(ctx, progress, STEPS, control(progress)), (err: unknown) => {
      assert.ok(err instanceof StepFailed);
      assert.equal(err.step, 'end-hook');
      assert.match(String(err.cause), /end-hook broke/);
      return true;
    });
    assert.deepEqual(ctx.calls, ['start-hook', 'infra', 'end-hook']);
    assert.deepEqual(progress.steps, { 'start-hook': 'done', infra: 'done', 'end-hook': 'started' });
    assert.deepEqual(progress.outputs['start-hook'], ANSWER, 'the start hook output is recorded');
    const infraStarted = saved.find((s) => JSON.parse(s).steps.infra === 'started');
    assert.deepEqual(
      JSON.parse(infraStarted ?? '{}').outputs?.['start-hook'],
      ANSWER,
      'saved before infra starts',
    );

    const retry: Ctx = { calls: [] };
    await runForward(retry, progress, STEPS, control(progress));
    assert.deepEqual(retry.calls, ['end-hook']);
    assert.equal(progress.steps['end-hook'], 'done');
    assert.deepEqual(progress.outputs['start-hook'], ANSWER);
  });

  test('compensation undoes in reverse only the steps that ran, once', async () => {
    const undoFirst = step('start-hook', true);
    const steps = [undoFirst, step('infra', true), step('end-hook', true)];
    const progress = emptyProgress();
    const ctx: Ctx = { calls: [], failAt: 'infra' };
    await assert.rejects(runForward(ctx, progress, steps, control(progress)));
    // infra started (it may have done part of its work) and is compensated too; end-hook never ran.
    const back: Ctx = { calls: [] };
    await compensate(back, progress, steps, control(progress));
    assert.deepEqual(back.calls, ['undo infra', 'undo start-hook']);
    assert.deepEqual(progress.compensated, { infra: 'done', 'start-hook': 'done' });
    assert.deepEqual(progress.steps, {});

    const again: Ctx = { calls: [] };
    await compensate(again, progress, steps, control(progress));
    assert.deepEqual(again.calls, []);
  });

  test('a failing compensation is reported as rollback-<step> and is run again next time', async () => {
    const progress: Progress = { ...emptyProgress(), steps: { infra: 'done' } };
    const failing = defineStep<Ctx, 'infra'>({
      name: 'infra',
      invoke: async () => undefined,
      compensate: async () => {
        throw new Error('VIM unreachable');
      },
    });
    await assert.rejects(
      compensate({ calls: [] }, progress, [failing], control(progress)),
      (err: unknown) => {
        assert.ok(err instanceof StepFailed);
        assert.equal(err.step, 'rollback-infra');
        return true;
      },
    );
    assert.equal(progress.compensated.infra, 'started');
    const ctx: Ctx = { calls: [] };
    await compensate(ctx, progress, [step('infra', true)], control(progress));
    assert.deepEqual(ctx.calls, ['undo infra']);
  });
});

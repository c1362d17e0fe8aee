/**
 * The console pages' logic that needs no browser: the op occ task table matches the LCM API's
 * own rules (a button is enabled exactly when the API would accept the task), the SSE framing
 * the timeline reads, timeline merging (a resumed stream never shows an event twice), what each
 * event kind says, and the heal an alarm's auto-heal note names.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { healNote, healOf } from '../../console/src/pages/alarms/heal-link.ts';
import {
  OP_BUTTONS,
  OP_TASKS,
  TASK_STATES,
  taskBlocked,
} from '../../console/src/pages/operations/actions.ts';
import { parseEvents, type StreamEvent } from '../../console/src/pages/operations/event-stream.ts';
import {
  describeEvent,
  mergeEvents,
  type TimelineEvent,
} from '../../console/src/pages/operations/timeline-model.ts';
import { TASKS } from '../../src/lcm/op-states.ts';
import { OPERATION_STATES } from '../../src/sol/lcm-operations.ts';

describe('operation tasks', () => {
  test("the console's table is the API's: same tasks, same states", () => {
    assert.deepEqual([...OP_TASKS].sort(), Object.keys(TASKS).sort());
    for (const task of OP_TASKS)
      assert.deepEqual([...TASK_STATES[task]].sort(), [...TASKS[task].from].sort(), task);
  });

  test('every task has a button; cancel asks for each mode the API takes', () => {
    assert.deepEqual([...new Set(OP_BUTTONS.map((b) => b.task))].sort(), [...OP_TASKS].sort());
    assert.deepEqual(
      OP_BUTTONS.filter((b) => b.task === 'cancel').map((b) => b.body?.cancelMode),
      ['GRACEFUL', 'FORCEFUL'],
    );
  });

  test('a task is offered exactly in the states the API accepts it in, rollback only with its link', () => {
    const rollback = { rollback: { href: '/x/rollback' } };
    for (const state of OPERATION_STATES) {
      for (const task of OP_TASKS) {
        const blocked = taskBlocked(task, { operationState: state, _links: rollback });
        assert.equal(blocked === undefined, TASKS[task].from.includes(state), `${task} in ${state}`);
      }
    }
    assert.equal(
      taskBlocked('rollback', { operationState: 'FAILED_TEMP', _links: {} }),
      'This operation cannot be rolled back.',
    );
    assert.equal(
      taskBlocked('retry', { operationState: 'COMPLETED' }),
      'Only FAILED_TEMP operations can be retried; this one is COMPLETED.',
    );
    assert.equal(
      taskBlocked('cancel', { operationState: 'PROCESSING', isCancelPending: true }),
      'Cancelling already.',
    );
  });
});

describe('event stream framing', () => {
  const parse = (text: string) => {
    const events: StreamEvent[] = [];
    const rest = parseEvents(text, (e) => events.push(e));
    return { events, rest };
  };

  test('events with ids, multi-line data, comments (heartbeats) skipped, an unfinished event kept', () => {
    const { events, rest } = parse(
      ': heartbeat\n\nid: 1\nevent: state\ndata: {"a":1}\n\nid: 2\ndata: line one\ndata: line two\r\n\r\nid: 3\ndata: {"par',
    );
    assert.deepEqual(events, [
      { id: '1', event: 'state', data: '{"a":1}' },
      { id: '2', event: 'message', data: 'line one\nline two' },
    ]);
    assert.equal(rest, 'id: 3\ndata: {"par');
    const done = parse(`${rest}tial":true}\n\n`);
    assert.deepEqual(done.events, [{ id: '3', event: 'message', data: '{"partial":true}' }]);
  });
});

describe('timeline', () => {
  const event = (seq: number, kind: string, fields: Record<string, unknown> = {}): TimelineEvent => ({
    seq,
    at: `2026-01-01T00:00:0${seq}.000Z`,
    kind,
    ...fields,
  });

  test('merging keeps sequence order and drops events already shown', () => {
    const known = [event(1, 'state', { state: 'STARTING' }), event(2, 'state', { state: 'PROCESSING' })];
    const merged = mergeEvents(known, [
      event(3, 'state', { state: 'COMPLETED' }),
      event(2, 'state'),
      event(1, 'state'),
    ]);
    assert.deepEqual(
      merged.map((e) => e.seq),
      [1, 2, 3],
    );
    assert.equal(mergeEvents(merged, [event(2, 'state')]), merged, 'nothing new: the same list');
  });

  test('each kind says what happened, failures and reselections marked', () => {
    const lines = [
      event(1, 'state', { state: 'FAILED_TEMP' }),
      event(2, 'step', {
        step: 'start-hook',
        hook: 'instantiate_start',
        status: 'finished',
        durationMs: 1500,
      }),
      event(3, 'placement', {
        zone: 'az2',
        reason: 'No valid host was found.',
        next: [{ vnfcId: 'VDU1-a', vduId: 'VDU1', zone: 'az1' }],
      }),
      event(4, 'placement', { zone: 'az1', reason: 'full', next: [], stopped: 'no zone left' }),
      event(5, 'error', {
        error: { status: 503, title: 'Service Unavailable', detail: 'Make room, then retry.' },
      }),
      event(6, 'output', { hook: 'heal_end', stream: 'stdout', line: 'restarted', vnfcId: 'VDU1-a' }),
      event(7, 'driver', {
        hook: 'heal_end',
        phase: 'command on VDU1-a',
        status: 'failed',
        detail: 'exit 2',
      }),
      event(8, 'something-new', { x: 1 }),
    ].map(describeEvent);
    assert.deepEqual(
      lines.map((l) => [l.tone, l.text, l.more]),
      [
        ['fail', 'Operation FAILED_TEMP', undefined],
        ['ok', 'Step start-hook (instantiate_start) finished in 1.5 s', undefined],
        ['warn', 'Zone az2 had no room (No valid host was found.); VDU1-a → az1', undefined],
        ['warn', 'Zone az1 had no room (full); stopped: no zone left', undefined],
        ['fail', 'Error 503: Service Unavailable', 'Make room, then retry.'],
        ['output', 'VDU1-a stdout: restarted', undefined],
        ['fail', 'heal_end: command on VDU1-a failed', 'exit 2'],
        [
          'info',
          'something-new: {"seq":8,"at":"2026-01-01T00:00:08.000Z","kind":"something-new","x":1}',
          undefined,
        ],
      ],
    );
  });
});

describe('the heal an alarm triggered', () => {
  const id = '6f1c2a4e-3b5d-4c7e-8f90-123456789abc';
  test('the newest auto-heal note naming a heal, whether it started or failed', () => {
    assert.equal(healOf([`auto-heal: heal ${id} of VNFCs VDU1-a started (attempt 1 of 3)`]), id);
    assert.equal(
      healOf([
        'other',
        `auto-heal: attempt 1 of 3 failed (heal ${id} ended FAILED_TEMP: no room); next no earlier than …`,
      ]),
      id,
    );
    assert.equal(
      healOf(['auto-heal: gave up after 3 failed automatic heals (last: the heal was refused: busy)']),
      undefined,
    );
    assert.equal(healOf(undefined), undefined);
    assert.equal(
      healNote([`auto-heal: heal ${id} of the whole VNF started`]),
      `heal ${id} of the whole VNF started`,
    );
  });
});

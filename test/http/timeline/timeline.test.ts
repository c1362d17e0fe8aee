/**
 * The live timeline of LCM op occs over real HTTP on SQLite and PostgreSQL: the events of a
 * completed operation in order (JSON and server-sent events, numbered, ending with the state);
 * a failing operation's step failure, error and FAILED_TEMP, then its retry to COMPLETED; a zone
 * reselection on the simulated VIM (a full zone); resuming a stream with Last-Event-ID without
 * loss or repeats; the per-client stream limit; a stream open while the server shuts down.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer } from '../../support/server.ts';
import { LCM_TEST_CONFIG, lcmServer, SIM, simFault } from '../vnflcm/lcm-server.ts';
import {
  createInstance,
  getOpOcc,
  INSTANTIATE,
  MAIN_SAMPLE,
  onboardOnce,
  runTask,
  startTask,
  V2,
  waitOpOcc,
} from '../vnflcm/lcm-support.ts';
import { sampleVariant } from '../vnflcm/sample-package.ts';
import { brief, readStream, TIMELINE, timeline } from './timeline-support.ts';

const MAIN_VNFD_ID = 'f1f6002c-6e73-5d15-aa56-7f33b3e1df21';
const DF = 'Definitions/v2_sample3_df_simple.yaml';
const ZONE_AFFINITY =
  '    - policy_affinity_group:\n        type: tosca.policies.nfv.AffinityRule\n        targets: [ affinityOrAntiAffinityGroup1 ]\n        properties:\n          scope: zone\n';

/** What a granted operation without failures goes through (the main sample runs its instantiate hooks). */
const INSTANTIATE_OK = [
  'state STARTING',
  'step grant started',
  'step grant finished',
  'state PROCESSING',
  'step start-hook (instantiate_start) started',
  'step start-hook (instantiate_start) finished',
  'step infra started',
  'step infra finished',
  'step end-hook (instantiate_end) started',
  'step end-hook (instantiate_end) finished',
  'state COMPLETED',
];

for (const dialect of DIALECTS) {
  describe(`op occ timeline (${dialect})`, () => {
    const server = lcmServer(dialect, { lcm: { timeline: { heartbeatMs: 100 } } });

    test('a completed instantiate: its events in order, numbered; the stream sends the same and ends COMPLETED', async () => {
      const inst = await createInstance(server.url, server.vnfdId);
      const op = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const body = await timeline(server.url, op.id);
      assert.equal(body.operationState, 'COMPLETED');
      assert.equal(body.operation, 'INSTANTIATE');
      assert.equal(body.more, false);
      assert.deepEqual(body.events.map(brief), INSTANTIATE_OK);
      assert.deepEqual(
        body.events.map((e) => e.seq),
        body.events.map((_, i) => i + 1),
      );
      const infra = body.events.find(
        (e) => e.kind === 'step' && e.step === 'infra' && e.status === 'finished',
      );
      assert.ok(infra?.kind === 'step' && typeof infra.durationMs === 'number');
      const stream = await readStream(server.url, op.id);
      assert.equal(stream.status, 200);
      assert.match(stream.contentType, /^text\/event-stream/);
      assert.deepEqual(stream.events, body.events);
      assert.deepEqual(
        stream.messages.filter((m) => m.event === 'message').map((m) => m.id),
        body.events.map((e) => String(e.seq)),
      );
      assert.deepEqual(stream.end, { operationState: 'COMPLETED' });
      // ?after= pages the JSON timeline.
      const rest = await http<{ events: { seq: number }[]; more: boolean }>(
        server.url,
        'GET',
        `${TIMELINE}/${op.id}/timeline?after=3&limit=2`,
      );
      assert.deepEqual(
        rest.body.events.map((e) => e.seq),
        [4, 5],
      );
      assert.equal(rest.body.more, true);
    });

    test('a stream opened while the operation runs sends each event as it happens, with heartbeats, to its end', async () => {
      const inst = await createInstance(server.url, server.vnfdId);
      // The VIM call hangs: the infra step is under way until the test cancels it.
      await simFault(server.url, 'server.create', 'hang', { timeoutMs: 60000 });
      const id = await startTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      let seenRunning = false;
      const stream = await readStream(server.url, id, {
        onEvent: async (event) => {
          if (brief(event) !== 'step infra started') return;
          // The event arrived while the step runs: the op occ is still PROCESSING.
          assert.equal((await getOpOcc(server.url, id)).operationState, 'PROCESSING');
          seenRunning = true;
          // Heartbeats keep the stream open while nothing happens.
          await new Promise((r) => setTimeout(r, 300));
          const cancel = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/cancel`, {
            headers: { Version: '2.0.0' },
            body: { cancelMode: 'FORCEFUL' },
          });
          assert.equal(cancel.status, 202, cancel.text);
        },
      });
      assert.ok(seenRunning);
      assert.deepEqual(stream.end, { operationState: 'FAILED_TEMP' });
      assert.match(stream.raw, /: heartbeat\n\n/);
      assert.deepEqual(stream.events.map(brief).slice(-3), [
        'step infra failed',
        'error',
        'state FAILED_TEMP',
      ]);
      assert.deepEqual(stream.events, (await timeline(server.url, id)).events);
      await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/fail`, { headers: { Version: '2.0.0' } });
    });

    test('a failing operation: the step failure, the error and FAILED_TEMP; its retry runs on to COMPLETED', async () => {
      const inst = await createInstance(server.url, server.vnfdId);
      await simFault(server.url, 'server.create', 'fail', { message: 'injected: the hypervisor said no' });
      const failed = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      assert.equal(failed.operationState, 'FAILED_TEMP');
      const first = await timeline(server.url, failed.id);
      const failure = first.events.find((e) => e.kind === 'step' && e.status === 'failed');
      assert.ok(failure?.kind === 'step');
      assert.equal(failure.step, 'infra');
      assert.match(failure.detail ?? '', /injected: the hypervisor said no/);
      const error = first.events.find((e) => e.kind === 'error');
      assert.ok(error?.kind === 'error');
      assert.deepEqual(error.error, failed.error);
      const retried = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/retry`, {
        headers: { Version: '2.0.0' },
      });
      assert.equal(retried.status, 202);
      assert.equal((await waitOpOcc(server.url, failed.id)).operationState, 'COMPLETED');
      const all = await timeline(server.url, failed.id);
      // The first attempt's events are kept; the retry resumes at infra (grant and start hook stay done).
      assert.deepEqual(all.events.slice(0, first.events.length), first.events);
      assert.deepEqual(all.events.map(brief), [
        ...INSTANTIATE_OK.slice(0, 6),
        'step infra started',
        'step infra failed',
        'error',
        'state FAILED_TEMP',
        'state PROCESSING',
        ...INSTANTIATE_OK.slice(6),
      ]);
    });

    test('Last-Event-ID resumes after that event: nothing lost, nothing repeated', async () => {
      const inst = await createInstance(server.url, server.vnfdId);
      const op = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
      const all = (await timeline(server.url, op.id)).events;
      // The first stream is dropped after three events; the second resumes from the third's id.
      const first = await readStream(server.url, op.id, { stop: (r) => r.events.length === 3 });
      const lastId = first.messages.filter((m) => m.event === 'message').at(-1)?.id as string;
      assert.equal(lastId, String(all[2]?.seq));
      const second = await readStream(server.url, op.id, { headers: { 'last-event-id': lastId } });
      assert.deepEqual([...first.events, ...second.events], all);
      assert.deepEqual(second.end, { operationState: 'COMPLETED' });
      const resumed = await fetch(`${server.url}${TIMELINE}/${op.id}/events?lastEventId=${all.length - 1}`);
      assert.match(await resumed.text(), new RegExp(`^retry: \\d+\\n\\nid: ${all.length}\\n`));
      const bad = await http(server.url, 'GET', `${TIMELINE}/${op.id}/events`, {
        headers: { 'last-event-id': 'yesterday' },
      });
      assert.ok(isProblem(bad, 400));
      assert.match((bad.body as { detail: string }).detail, /Last-Event-ID/);
    });

    test('/api-docs documents both paths with the event schema', async () => {
      const docs = (
        await http<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>(
          server.url,
          'GET',
          '/api-docs',
        )
      ).body;
      const json = JSON.stringify(docs.paths['/bosun/v1/vnf_lcm_op_occs/{id}/timeline']?.get?.responses);
      for (const kind of ['state', 'step', 'driver', 'output', 'placement', 'error'])
        assert.match(json, new RegExp(`"enum":\\["${kind}"\\]|"const":"${kind}"`), kind);
      const events = JSON.stringify(docs.paths['/bosun/v1/vnf_lcm_op_occs/{id}/events']?.get?.responses);
      assert.match(events, /text\/event-stream/);
      assert.match(events, /Last-Event-ID/);
    });

    test('unknown and malformed op occ ids are 404 on both paths', async () => {
      for (const id of ['6c5b4cf5-6b9e-4a63-9d3b-2d5e3d4b0a11', 'not-an-id']) {
        assert.ok(isProblem(await http(server.url, 'GET', `${TIMELINE}/${id}/timeline`), 404));
        assert.ok(isProblem(await http(server.url, 'GET', `${TIMELINE}/${id}/events`), 404));
      }
    });
  });

  describe(`op occ timeline of a zone reselection (${dialect})`, () => {
    // Without its zone affinity rule the main sample's VNFCs are spread over zone-a and zone-b.
    const server = lcmServer(dialect, {}, () =>
      sampleVariant(MAIN_SAMPLE, {
        vnfdId: MAIN_VNFD_ID,
        edit: { [DF]: (t) => t.replace(ZONE_AFFINITY, '') },
      }),
    );

    test('zone-b full: the reselection attempt is in the timeline, between the start and the end of the infra step', async () => {
      const inst = await createInstance(server.url, server.vnfdId);
      assert.equal((await http(server.url, 'POST', `${SIM}/zones/zone-b/exhaust`)).status, 200);
      try {
        const op = await runTask(server.url, inst.id, 'instantiate', INSTANTIATE);
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const events = (await timeline(server.url, op.id)).events;
        const placements = events.filter((e) => e.kind === 'placement');
        assert.equal(placements.length, 1, JSON.stringify(events));
        const attempt = placements[0];
        assert.ok(attempt?.kind === 'placement');
        assert.equal(attempt.zone, 'zone-b');
        assert.match(attempt.reason, /No valid host was found/);
        assert.ok(attempt.next.length > 0 && attempt.next.every((n) => n.zone === 'zone-a'));
        const at = events.indexOf(attempt);
        assert.equal(brief(events[at - 1] as (typeof events)[number]), 'step infra started');
        assert.deepEqual(events.slice(at + 1).map(brief), [
          'step infra finished',
          ...INSTANTIATE_OK.slice(8),
        ]);
      } finally {
        await http(server.url, 'POST', `${SIM}/zones/zone-b/restore`);
      }
    });
  });

  describe(`op occ event streams: limits and shutdown (${dialect})`, () => {
    test('a stream without a new event for streamIdleTimeoutMs is closed, saying why; resuming it goes on', async () => {
      const server = await startTestServer(dialect, {
        config: { ...LCM_TEST_CONFIG, lcm: { timeline: { streamIdleTimeoutMs: 1000, heartbeatMs: 100 } } },
      });
      try {
        const pkg = await onboardOnce(server.url);
        const inst = await createInstance(server.url, pkg.vnfdId as string);
        await simFault(server.url, 'server.create', 'hang', { timeoutMs: 60000 });
        const id = await startTask(server.url, inst.id, 'instantiate', INSTANTIATE);
        // The infra step hangs: no event comes after it started, and the stream is closed.
        const idle = await readStream(server.url, id);
        assert.equal(idle.end, undefined);
        assert.equal(brief(idle.events.at(-1) as (typeof idle.events)[number]), 'step infra started');
        assert.match(idle.raw, /: heartbeat\n\n/);
        assert.match(
          idle.raw,
          /: no event for 1000 ms \(lcm\.timeline\.streamIdleTimeoutMs\): reconnect with Last-Event-ID to go on\n\n$/,
        );
        const lastId = String(idle.events.at(-1)?.seq);
        const cancel = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${id}/cancel`, {
          headers: { Version: '2.0.0' },
          body: { cancelMode: 'FORCEFUL' },
        });
        assert.equal(cancel.status, 202);
        const resumed = await readStream(server.url, id, { headers: { 'last-event-id': lastId } });
        assert.deepEqual(resumed.events.map(brief), ['step infra failed', 'error', 'state FAILED_TEMP']);
        assert.deepEqual(resumed.end, { operationState: 'FAILED_TEMP' });
      } finally {
        await server.close();
      }
    });

    test('a client holds at most streamsPerClient streams; the server shuts down with streams open and ends them', async () => {
      const server = await startTestServer(dialect, {
        config: { ...LCM_TEST_CONFIG, lcm: { timeline: { streamsPerClient: 2 } } },
      });
      try {
        const pkg = await onboardOnce(server.url);
        const inst = await createInstance(server.url, pkg.vnfdId as string);
        await simFault(server.url, 'server.create', 'hang', { timeoutMs: 60000 });
        const id = await startTask(server.url, inst.id, 'instantiate', INSTANTIATE);
        // Two streams, open once each has sent its first event.
        const opened: (() => void)[] = [];
        const both = Promise.all([0, 1].map(() => new Promise<void>((resolve) => opened.push(resolve))));
        const open = [0, 1].map((i) =>
          readStream(server.url, id, { timeoutMs: 60000, onEvent: () => opened[i]?.() }),
        );
        await both;
        const third = await http(server.url, 'GET', `${TIMELINE}/${id}/events`);
        assert.ok(isProblem(third, 429), third.text);
        assert.equal(third.headers.get('retry-after'), '5');
        assert.match((third.body as { detail: string }).detail, /streamsPerClient is 2/);
        // Shutdown ends the streams (the op occ is still running): close() returns.
        const closed = server.close();
        const reads = await Promise.all(open);
        await closed;
        for (const read of reads) {
          assert.equal(read.status, 200);
          assert.equal(read.end, undefined);
          assert.match(read.raw, /: the server is shutting down: reconnect with Last-Event-ID\n\n$/);
        }
      } finally {
        await server.close();
      }
    });
  });
}

/**
 * LCM notifications as a subscriber receives them (a real receiver on loopback, through the
 * delivery engine): VnfIdentifierCreation/Deletion, and for each op occ state entered a
 * VnfLcmOperationOccurrenceNotification — START on STARTING, PROCESSING and ROLLING_BACK, RESULT on
 * COMPLETED, FAILED_TEMP, FAILED and ROLLED_BACK (SOL003, not Tacker's RESULT for PROCESSING) —
 * with resource changes and errors on the RESULT ones, in order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Receiver, startReceiver } from '../../notify/delivery/support.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createInstance, H, INSTANTIATE, onboardOnce, runTask, V2, waitOpOcc } from './lcm-support.ts';

type Note = Record<string, unknown> & {
  notificationType: string;
  operationState?: string;
  notificationStatus?: string;
};

for (const dialect of DIALECTS) {
  describe(`LCM notifications (${dialect})`, () => {
    let server: TestServer;
    let receiver: Receiver;
    let vnfdId: string;
    before(async () => {
      receiver = await startReceiver();
      server = await startTestServer(dialect, {
        config: {
          worker: { pollIntervalMs: 50 },
          sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 },
          outbound: { allow: ['127.0.0.0/8'] },
        },
      });
      vnfdId = (await onboardOnce(server.url)).vnfdId as string;
      const sub = await http(server.url, 'POST', `${V2}/subscriptions`, {
        headers: H,
        body: {
          callbackUri: `${receiver.url}/lcm`,
          filter: { vnfInstanceSubscriptionFilter: { vnfdIds: [vnfdId] } },
        },
      });
      assert.equal(sub.status, 201, sub.text);
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    const notesFor = (instanceId: string): Note[] =>
      receiver
        .notifications()
        .map((r) => r.body as Note)
        .filter((b) => b.vnfInstanceId === instanceId);
    const waitNotes = (instanceId: string, n: number) =>
      receiver.waitFor(
        (r) => r.notifications().filter((x) => x.body?.vnfInstanceId === instanceId).length >= n,
        `${n} notifications`,
      );
    const states = (notes: Note[]) =>
      notes
        .filter((n) => n.notificationType === 'VnfLcmOperationOccurrenceNotification')
        .map((n) => `${n.operation} ${n.operationState} ${n.notificationStatus}`);

    test('the life of an instance, as notified', async () => {
      const inst = await createInstance(server.url, vnfdId);
      assert.equal(
        (await runTask(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      await http(server.url, 'POST', '/bosun/v1/sim/faults', {
        body: { kind: 'server.create', action: 'fail' },
      });
      const failed = await runTask(server.url, inst.id, 'scale', {
        type: 'SCALE_OUT',
        aspectId: 'VDU1_scale',
      });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failed.id}/rollback`, { headers: H });
      assert.equal((await waitOpOcc(server.url, failed.id)).operationState, 'ROLLED_BACK');
      const patch = await http(server.url, 'PATCH', `${V2}/vnf_instances/${inst.id}`, {
        headers: { ...H, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ vnfInstanceName: 'renamed' }),
      });
      await waitOpOcc(server.url, (patch.headers.get('location') ?? '').split('/').pop() as string);
      await http(server.url, 'POST', '/bosun/v1/sim/faults', {
        body: { kind: 'server.delete', action: 'fail' },
      });
      const term = await runTask(server.url, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal(term.operationState, 'FAILED_TEMP');
      assert.equal(
        (await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${term.id}/fail`, { headers: H })).status,
        200,
      );
      const term2 = await runTask(server.url, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
      assert.equal(term2.operationState, 'COMPLETED');
      assert.equal(
        (await http(server.url, 'DELETE', `${V2}/vnf_instances/${inst.id}`, { headers: H })).status,
        204,
      );

      await waitNotes(inst.id, 19);
      const notes = notesFor(inst.id);
      assert.equal(notes[0].notificationType, 'VnfIdentifierCreationNotification');
      assert.equal(notes.at(-1)?.notificationType, 'VnfIdentifierDeletionNotification');
      assert.deepEqual(states(notes), [
        'INSTANTIATE STARTING START',
        'INSTANTIATE PROCESSING START',
        'INSTANTIATE COMPLETED RESULT',
        'SCALE STARTING START',
        'SCALE PROCESSING START',
        'SCALE FAILED_TEMP RESULT',
        'SCALE ROLLING_BACK START',
        'SCALE ROLLED_BACK RESULT',
        'MODIFY_INFO PROCESSING START',
        'MODIFY_INFO COMPLETED RESULT',
        'TERMINATE STARTING START',
        'TERMINATE PROCESSING START',
        'TERMINATE FAILED_TEMP RESULT',
        'TERMINATE FAILED RESULT',
        'TERMINATE STARTING START',
        'TERMINATE PROCESSING START',
        'TERMINATE COMPLETED RESULT',
      ]);
      const ops = notes.filter((n) => n.notificationType === 'VnfLcmOperationOccurrenceNotification');
      const completed = ops[2] as Note & {
        affectedVnfcs?: unknown[];
        verbosity?: string;
        _links: Record<string, { href: string }>;
      };
      assert.equal(completed.affectedVnfcs?.length, 2);
      assert.equal(completed.verbosity, 'FULL');
      assert.match(completed._links.vnfLcmOpOcc.href, /\/vnflcm\/v2\/vnf_lcm_op_occs\/[0-9a-f-]{36}$/);
      assert.equal(ops[0].affectedVnfcs, undefined);
      assert.match(
        (ops[5] as { error?: { detail: string } }).error?.detail ?? '',
        /Simulated failure of server\.create/,
      );
      assert.deepEqual((ops[9] as { changedInfo?: unknown }).changedInfo, { vnfInstanceName: 'renamed' });
      assert.ok((ops[13] as { error?: unknown }).error);
    });
  });
}

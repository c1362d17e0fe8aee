/**
 * LCM notifications of /vnflcm/v1 instances as a subscriber receives them (a real receiver on
 * loopback, through the delivery engine), on SQLite and PostgreSQL: a /vnflcm/v1 subscriber gets
 * SOL003 v2.6.1 representations — checked with the ETSI schemas, linking /vnflcm/v1, without
 * v3.3.1 attributes (verbosity, zoneId, affectedExtLinkPorts, currentVnfExtCpData), changedInfo
 * with a vimConnectionInfo array — for every state an op occ enters (START on STARTING, PROCESSING
 * and ROLLING_BACK, RESULT on the others), in order; a /vnflcm/v2 subscriber hears nothing about a
 * v1 instance, and the v1 subscriber nothing about a v2 instance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Receiver, startReceiver } from '../../notify/delivery/support.ts';
import { assertEtsiValid, LCM } from '../../notify/subscriptions/etsi-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createInstance, H, INSTANTIATE, onboardOnce, runTask, V2 } from './lcm-support.ts';
import { assertOpOccNotificationV1 } from './v1-schemas.ts';
import { createInstanceV1, extVirtualLinkV1, H1, idOf, runTaskV1, V1, waitOpOccV1 } from './v1-support.ts';

type Note = Record<string, unknown> & {
  notificationType: string;
  vnfInstanceId: string;
  operation?: string;
  operationState?: string;
  notificationStatus?: string;
  _links: Record<string, { href: string }>;
};

for (const dialect of DIALECTS) {
  describe(`/vnflcm/v1 LCM notifications (${dialect})`, () => {
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
      for (const [prefix, headers, path] of [
        [V1, H1, '/v1'],
        [V2, H, '/v2'],
      ] as const) {
        const sub = await http(server.url, 'POST', `${prefix}/subscriptions`, {
          headers,
          body: {
            callbackUri: `${receiver.url}${path}`,
            filter: { vnfInstanceSubscriptionFilter: { vnfdIds: [vnfdId] } },
          },
        });
        assert.equal(sub.status, 201, sub.text);
      }
    });
    after(async () => {
      await server.close();
      await receiver.close();
    });

    const notesFor = (path: string, instanceId: string): Note[] =>
      receiver
        .notifications()
        .filter((r) => r.path === path)
        .map((r) => r.body as Note)
        .filter((b) => b.vnfInstanceId === instanceId);
    const states = (notes: Note[]) =>
      notes
        .filter((n) => n.notificationType === 'VnfLcmOperationOccurrenceNotification')
        .map((n) => `${n.operation} ${n.operationState} ${n.notificationStatus}`);

    test('a v1 subscriber hears the life of a v1 instance in v2.6.1 shapes; v2 subscribers do not', async () => {
      const base = server.url;
      const inst = await createInstanceV1(base, vnfdId);
      assert.equal((await runTaskV1(base, inst.id, 'instantiate', INSTANTIATE)).operationState, 'COMPLETED');
      await http(base, 'POST', '/bosun/v1/sim/faults', { body: { kind: 'server.create', action: 'fail' } });
      const failed = await runTaskV1(base, inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
      assert.equal(failed.operationState, 'FAILED_TEMP');
      await http(base, 'POST', `${V1}/vnf_lcm_op_occs/${failed.id}/rollback`, { headers: H1 });
      assert.equal((await waitOpOccV1(base, failed.id)).operationState, 'ROLLED_BACK');
      const ext = await runTaskV1(base, inst.id, 'change_ext_conn', {
        extVirtualLinks: [extVirtualLinkV1('ext-1', 'net-ext-1')],
      });
      assert.equal(ext.operationState, 'COMPLETED', JSON.stringify(ext.error));
      const patch = await http(base, 'PATCH', `${V1}/vnf_instances/${inst.id}`, {
        headers: H1,
        body: {
          vnfInstanceName: 'renamed',
          vimConnectionInfo: [{ id: 'spare', vimType: 'BOSUN.SIM.V1', accessInfo: { password: 'p' } }],
        },
      });
      assert.equal(patch.status, 202, patch.text);
      assert.equal(
        (await waitOpOccV1(base, idOf(patch.headers.get('location')))).operationState,
        'COMPLETED',
      );
      assert.equal(
        (await runTaskV1(base, inst.id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
        'COMPLETED',
      );
      assert.equal(
        (await http(base, 'DELETE', `${V1}/vnf_instances/${inst.id}`, { headers: H1 })).status,
        204,
      );

      await receiver.waitFor(() => notesFor('/v1', inst.id).length >= 18, '18 v1 notifications');
      const notes = notesFor('/v1', inst.id);
      assert.equal(notes.length, 18);
      assert.equal(notes[0].notificationType, 'VnfIdentifierCreationNotification');
      assertEtsiValid(`${LCM}/VnfIdentifierCreationNotification.schema.json`, notes[0], 'creation');
      const last = notes.at(-1) as Note;
      assert.equal(last.notificationType, 'VnfIdentifierDeletionNotification');
      assertEtsiValid(`${LCM}/vnfIdentifierDeletionNotification.schema.json`, last, 'deletion');
      assert.deepEqual(states(notes), [
        'INSTANTIATE STARTING START',
        'INSTANTIATE PROCESSING START',
        'INSTANTIATE COMPLETED RESULT',
        'SCALE STARTING START',
        'SCALE PROCESSING START',
        'SCALE FAILED_TEMP RESULT',
        'SCALE ROLLING_BACK START',
        'SCALE ROLLED_BACK RESULT',
        'CHANGE_EXT_CONN STARTING START',
        'CHANGE_EXT_CONN PROCESSING START',
        'CHANGE_EXT_CONN COMPLETED RESULT',
        'MODIFY_INFO PROCESSING START',
        'MODIFY_INFO COMPLETED RESULT',
        'TERMINATE STARTING START',
        'TERMINATE PROCESSING START',
        'TERMINATE COMPLETED RESULT',
      ]);
      const ops = notes.filter((n) => n.notificationType === 'VnfLcmOperationOccurrenceNotification');
      for (const [i, n] of ops.entries()) {
        assertOpOccNotificationV1(n, `notification ${i} (${n.operation} ${n.operationState})`);
        assert.equal('verbosity' in n, false);
        assert.equal('affectedExtLinkPorts' in n, false);
        assert.match(n._links.vnfInstance.href, new RegExp(`/vnflcm/v1/vnf_instances/${inst.id}$`));
        assert.match(n._links.subscription.href, /\/vnflcm\/v1\/subscriptions\/[0-9a-f-]{36}$/);
        assert.match(n._links.vnfLcmOpOcc.href, /\/vnflcm\/v1\/vnf_lcm_op_occs\/[0-9a-f-]{36}$/);
      }
      const instantiated = ops[2] as Note & { affectedVnfcs: Record<string, unknown>[] };
      assert.equal(instantiated.affectedVnfcs.length, 2);
      for (const c of instantiated.affectedVnfcs) {
        assert.equal('zoneId' in c, false);
        assert.match(String((c.metadata as { zone?: string }).zone), /^zone-/);
      }
      assert.equal(ops[0].affectedVnfcs, undefined);
      assert.match(
        String((ops[5].error as { detail?: string }).detail),
        /Simulated failure of server\.create/,
      );
      const changed = ops[10] as Note & { changedExtConnectivity: Record<string, unknown>[] };
      assert.deepEqual(
        changed.changedExtConnectivity.map((l) => l.id),
        ['ext-1'],
      );
      assert.equal('currentVnfExtCpData' in changed.changedExtConnectivity[0], false);
      assert.deepEqual((ops[12] as { changedInfo?: unknown }).changedInfo, {
        vnfInstanceName: 'renamed',
        vimConnectionInfo: [{ id: 'spare', vimType: 'BOSUN.SIM.V1' }],
      });
      // A v2 instance of the same package: the v2 subscriber hears it, the v1 one does not.
      const v2 = await createInstance(base, vnfdId);
      assert.equal((await runTask(base, v2.id, 'instantiate', INSTANTIATE)).operationState, 'COMPLETED');
      await receiver.waitFor(() => notesFor('/v2', v2.id).length >= 4, 'v2 notifications');
      assert.equal(notesFor('/v1', v2.id).length, 0);
      // Delivery is in order per subscriber: had the v2 subscriber been sent anything about the v1
      // instance (produced earlier), it would have arrived before these.
      assert.equal(notesFor('/v2', inst.id).length, 0, 'no v2 notification about the v1 instance');
      const v2Completed = notesFor('/v2', v2.id).find((n) => n.operationState === 'COMPLETED') as Note;
      assert.equal(v2Completed.verbosity, 'FULL');
      assert.match(v2Completed._links.vnfInstance.href, /\/vnflcm\/v2\/vnf_instances\//);
    });
  });
}

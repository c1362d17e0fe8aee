/**
 * LCM notifications as a subscriber receives them (a real receiver on loopback, through the
 * delivery engine), on both LCM majors and both databases: VnfIdentifierCreation/Deletion, and for
 * each op occ state entered a VnfLcmOperationOccurrenceNotification — START on STARTING,
 * PROCESSING and ROLLING_BACK, RESULT on COMPLETED, FAILED_TEMP, FAILED and ROLLED_BACK (SOL003,
 * not Tacker's RESULT for PROCESSING) — with resource changes and errors on the RESULT ones, in
 * order. A /vnflcm/v1 subscriber gets SOL003 v2.6.1 representations, checked with the ETSI
 * schemas and without v3.3.1 attributes (verbosity, zoneId, affectedExtLinkPorts,
 * currentVnfExtCpData); each major's subscriber hears only its own major's instances.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Receiver, startReceiver } from '../../notify/delivery/support.ts';
import { assertEtsiValid, LCM } from '../../notify/subscriptions/etsi-schemas.ts';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { idOf } from './lcm-client.ts';
import { LCM_TEST_CONFIG, simFault } from './lcm-server.ts';
import { INSTANTIATE, onboardOnce } from './lcm-support.ts';
import { MAJORS, type Major } from './majors.ts';
import { assertOpOccNotificationV1 } from './v1-schemas.ts';
import { extVirtualLinkV1 } from './v1-support.ts';

type Note = Record<string, unknown> & {
  notificationType: string;
  vnfInstanceId: string;
  operation?: string;
  operationState?: string;
  notificationStatus?: string;
  _links: Record<string, { href: string }>;
};

const cpProtocolData = [
  {
    layerProtocol: 'IP_OVER_ETHERNET',
    ipOverEthernet: { ipAddresses: [{ type: 'IPV4', numDynamicAddresses: 1 }] },
  },
];

/** What differs between the majors' scenarios and notifications. */
const EXPECTED: Record<
  Major['major'],
  {
    extVirtualLink: Record<string, unknown>;
    /** The PATCH (as each major's clients send it) and the changedInfo it is notified with. */
    patch: { headers: Record<string, string>; body: string | object; changedInfo: unknown };
    verbosity: string | undefined;
    checkOpOccNotification(note: Note, what: string): void;
    /** v2.6.1 has no zoneId: the zone is in the VNFC's metadata. */
    zoneOf(vnfc: Record<string, unknown>): unknown;
  }
> = {
  v1: {
    extVirtualLink: extVirtualLinkV1('ext-1', 'net-ext-1'),
    patch: {
      headers: {},
      body: {
        vnfInstanceName: 'renamed',
        vimConnectionInfo: [{ id: 'spare', vimType: 'BOSUN.SIM.V1', accessInfo: { password: 'p' } }],
      },
      changedInfo: {
        vnfInstanceName: 'renamed',
        vimConnectionInfo: [{ id: 'spare', vimType: 'BOSUN.SIM.V1' }],
      },
    },
    verbosity: undefined,
    checkOpOccNotification: assertOpOccNotificationV1,
    zoneOf: (vnfc) => {
      assert.equal('zoneId' in vnfc, false);
      return (vnfc.metadata as { zone?: string }).zone;
    },
  },
  v2: {
    extVirtualLink: {
      id: 'ext-1',
      resourceId: 'net-ext-1',
      extCps: [{ cpdId: 'VDU1_CP1', cpConfig: { c1: { cpProtocolData } } }],
    },
    patch: {
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ vnfInstanceName: 'renamed' }),
      changedInfo: { vnfInstanceName: 'renamed' },
    },
    verbosity: 'FULL',
    checkOpOccNotification: () => {},
    zoneOf: (vnfc) => vnfc.zoneId,
  },
};

for (const dialect of DIALECTS) {
  describe(`LCM notifications (${dialect})`, () => {
    let server: TestServer;
    let receiver: Receiver;
    let vnfdId: string;
    /** Each major's instance whose life was notified. */
    const lived = new Map<string, string>();
    before(async () => {
      receiver = await startReceiver();
      server = await startTestServer(dialect, {
        config: { ...LCM_TEST_CONFIG, outbound: { allow: ['127.0.0.0/8'] } },
      });
      vnfdId = (await onboardOnce(server.url)).vnfdId as string;
      for (const m of MAJORS) {
        const sub = await http(server.url, 'POST', `${m.prefix}/subscriptions`, {
          headers: m.headers,
          body: {
            callbackUri: `${receiver.url}/${m.major}`,
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

    const notesFor = (major: string, instanceId: string): Note[] =>
      receiver
        .notifications()
        .filter((r) => r.path === `/${major}`)
        .map((r) => r.body as Note)
        .filter((b) => b.vnfInstanceId === instanceId);
    const states = (notes: Note[]) =>
      notes
        .filter((n) => n.notificationType === 'VnfLcmOperationOccurrenceNotification')
        .map((n) => `${n.operation} ${n.operationState} ${n.notificationStatus}`);

    for (const m of MAJORS) {
      const expected = EXPECTED[m.major];
      test(`the life of a ${m.prefix} instance, as its subscriber is notified`, async () => {
        const base = server.url;
        const c = m.client;
        const opOccTask = (id: string, name: string) =>
          http(base, 'POST', `${m.prefix}/vnf_lcm_op_occs/${id}/${name}`, { headers: m.headers });
        const inst = await c.createInstance(base, vnfdId);
        lived.set(m.major, inst.id);
        assert.equal(
          (await c.runTask(base, inst.id, 'instantiate', INSTANTIATE)).operationState,
          'COMPLETED',
        );
        await simFault(base, 'server.create', 'fail');
        const failed = await c.runTask(base, inst.id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
        assert.equal(failed.operationState, 'FAILED_TEMP');
        await opOccTask(failed.id, 'rollback');
        assert.equal((await c.waitOpOcc(base, failed.id)).operationState, 'ROLLED_BACK');
        const ext = await c.runTask(base, inst.id, 'change_ext_conn', {
          extVirtualLinks: [expected.extVirtualLink],
        });
        assert.equal(ext.operationState, 'COMPLETED', JSON.stringify(ext.error));
        const patch = await http(base, 'PATCH', `${m.prefix}/vnf_instances/${inst.id}`, {
          headers: { ...m.headers, ...expected.patch.headers },
          body: expected.patch.body,
        });
        assert.equal(patch.status, 202, patch.text);
        assert.equal(
          (await c.waitOpOcc(base, idOf(patch.headers.get('location')))).operationState,
          'COMPLETED',
        );
        await simFault(base, 'server.delete', 'fail');
        const term = await c.runTask(base, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
        assert.equal(term.operationState, 'FAILED_TEMP');
        assert.equal((await opOccTask(term.id, 'fail')).status, 200);
        const term2 = await c.runTask(base, inst.id, 'terminate', { terminationType: 'FORCEFUL' });
        assert.equal(term2.operationState, 'COMPLETED');
        assert.equal(
          (await http(base, 'DELETE', `${m.prefix}/vnf_instances/${inst.id}`, { headers: m.headers })).status,
          204,
        );

        await receiver.waitFor(() => notesFor(m.major, inst.id).length >= 22, '22 notifications');
        const notes = notesFor(m.major, inst.id);
        assert.equal(notes.length, 22);
        assert.equal(notes[0].notificationType, 'VnfIdentifierCreationNotification');
        const last = notes.at(-1) as Note;
        assert.equal(last.notificationType, 'VnfIdentifierDeletionNotification');
        if (m.major === 'v1') {
          assertEtsiValid(`${LCM}/VnfIdentifierCreationNotification.schema.json`, notes[0], 'creation');
          assertEtsiValid(`${LCM}/vnfIdentifierDeletionNotification.schema.json`, last, 'deletion');
        }
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
          'TERMINATE FAILED_TEMP RESULT',
          'TERMINATE FAILED RESULT',
          'TERMINATE STARTING START',
          'TERMINATE PROCESSING START',
          'TERMINATE COMPLETED RESULT',
        ]);
        const ops = notes.filter((n) => n.notificationType === 'VnfLcmOperationOccurrenceNotification');
        for (const [i, n] of ops.entries()) {
          expected.checkOpOccNotification(n, `notification ${i} (${n.operation} ${n.operationState})`);
          assert.equal(n.verbosity, expected.verbosity);
          if (m.major === 'v1') assert.equal('affectedExtLinkPorts' in n, false);
          assert.match(n._links.vnfInstance.href, new RegExp(`${m.prefix}/vnf_instances/${inst.id}$`));
          assert.match(n._links.subscription.href, new RegExp(`${m.prefix}/subscriptions/[0-9a-f-]{36}$`));
          assert.match(n._links.vnfLcmOpOcc.href, new RegExp(`${m.prefix}/vnf_lcm_op_occs/[0-9a-f-]{36}$`));
        }
        const instantiated = ops[2] as Note & { affectedVnfcs: Record<string, unknown>[] };
        assert.equal(instantiated.affectedVnfcs.length, 2);
        for (const vnfc of instantiated.affectedVnfcs) assert.match(String(expected.zoneOf(vnfc)), /^zone-/);
        // An affected VL's descriptor is vnfVirtualLinkDescId in a notification of either major (the
        // v2.6.1 notification schema has it so; only a v1 VnfLcmOpOcc says virtualLinkDescId).
        const vls = (instantiated as { affectedVirtualLinks?: Record<string, unknown>[] })
          .affectedVirtualLinks;
        assert.equal(vls?.length, 3);
        for (const vl of vls ?? []) {
          assert.match(String(vl.vnfVirtualLinkDescId), /^internalVL\d$/);
          assert.equal('virtualLinkDescId' in vl, false);
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
        if (m.major === 'v1') assert.equal('currentVnfExtCpData' in changed.changedExtConnectivity[0], false);
        assert.deepEqual((ops[12] as { changedInfo?: unknown }).changedInfo, expected.patch.changedInfo);
        assert.ok((ops[16] as { error?: unknown }).error);
      });
    }

    test("a subscriber hears nothing of the other major's instances", async () => {
      // Delivery is in order per subscriber, and the v2 instance lived after the v1 one: had the v2
      // subscriber been sent anything about the v1 instance, it would have arrived before.
      const v1 = lived.get('v1') as string;
      const v2 = lived.get('v2') as string;
      assert.ok(notesFor('v2', v2).length > 0);
      assert.equal(notesFor('v2', v1).length, 0, 'no v2 notification about the v1 instance');
      assert.equal(notesFor('v1', v2).length, 0, 'no v1 notification about the v2 instance');
    });
  });
}

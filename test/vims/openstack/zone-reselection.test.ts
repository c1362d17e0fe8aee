/**
 * Availability-zone reselection on the real mini-openstack, through the whole server: a VIM
 * registered by its Keystone credentials, a package whose VDU boots its own image, the local
 * NFVO choosing among the zones Nova reports. az2 has one host; filling it with m1.xlarge
 * servers this test boots itself makes Nova's scheduler answer "No valid host was found", and:
 * instantiate lands in az1 after one reselection; with every zone full it ends FAILED_TEMP
 * naming each zone tried and a retry completes once az1 has room; a scale out granted a full
 * zone lands in the other; a heal of a VNFC whose zone became full replaces it in the other
 * zone; zone anti-affinity of three VNFCs over two zones is refused, or placed with best effort.
 * SQLite only: the database is not
 * what is tested here, and every run boots real servers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PlacementAttempt } from '../../../src/lcm/placement/attempts.ts';
import { type OpenStackClient, openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import {
  createInstance,
  FINAL_STATES,
  getInstance,
  H,
  type Instance,
  startTask,
  V2,
  waitOpOcc,
} from '../../http/vnflcm/lcm-support.ts';
import { onboard } from '../../http/vnfpkgm/support.ts';
import { http } from '../../support/http.ts';
import {
  type MiniOpenStack,
  miniOpenStack,
  OPENSTACK_VIM_TYPE,
  testPrefix,
} from '../../support/mini-openstack.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { ASPECT, openStackVariant, registerVim } from './server-package.ts';
import { ZoneFiller } from './zone-filler.ts';

const TIMEOUT = { timeout: 900_000 };

const ZONE_SPREAD =
  '    - spread:\n        type: tosca.policies.nfv.AntiAffinityRule\n        targets: [ VDU1 ]\n        properties:\n          scope: zone\n';

/** Heat and Nova take seconds per server on a busy machine: an operation may take minutes. */
const OP_TIMEOUT_MS = 600_000;

/** Every op occ the tests start, for the clean-up. */
const operations: string[] = [];

async function runTask(base: string, id: string, task: string, body: Record<string, unknown>) {
  const opId = await startTask(base, id, task, body);
  operations.push(opId);
  return waitOpOcc(base, opId, FINAL_STATES, OP_TIMEOUT_MS);
}

const vnfcs = (i: Instance) => i.instantiatedVnfInfo?.vnfcResourceInfo ?? [];

describe('zone reselection on mini-openstack', () => {
  let cloud: MiniOpenStack;
  let client: OpenStackClient;
  let server: TestServer;
  let filler: ZoneFiller;
  let vimId: string;
  const vnfdIds: Record<string, string> = {};
  const instances: string[] = [];

  before(async () => {
    cloud = await miniOpenStack();
    client = openStackClient(cloud.admin, cloud.policy);
    const [image] = await client.glance.images({ name: 'fake-image' });
    filler = new ZoneFiller(client, image.id, testPrefix('reselect-fill'));
    server = await startTestServer('sqlite', {
      config: {
        worker: { pollIntervalMs: 50 },
        outbound: { allow: ['127.0.0.1', '::1', 'localhost'] },
      },
    });
    vimId = await registerVim(server.url, cloud, 'reselect-vim');
    for (const [name, pkg] of [
      ['one', await openStackVariant(1)],
      ['two', await openStackVariant(2)],
      ['three-apart', await openStackVariant(3, ZONE_SPREAD)],
    ] as const) {
      const onboarded = await onboard(server.url, pkg.zip);
      assert.equal(
        onboarded.onboardingState,
        'ONBOARDED',
        JSON.stringify(onboarded.onboardingFailureDetails),
      );
      vnfdIds[name] = pkg.vnfdId;
    }
  });

  after(async () => {
    // What a failed test left: its failed operation rolled back, its instance terminated.
    for (const opId of operations) {
      const op = await waitOpOcc(server.url, opId, FINAL_STATES, OP_TIMEOUT_MS).catch(() => undefined);
      if (op?.operationState !== 'FAILED_TEMP') continue;
      const res = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${opId}/rollback`, { headers: H });
      if (res.status === 202)
        await waitOpOcc(server.url, opId, FINAL_STATES, OP_TIMEOUT_MS).catch(() => undefined);
    }
    for (const id of instances) {
      const now = await getInstance(server.url, id).catch(() => undefined);
      if (now?.instantiationState === 'INSTANTIATED')
        await runTask(server.url, id, 'terminate', { terminationType: 'FORCEFUL' }).catch(() => undefined);
    }
    await filler?.emptyAll();
    await server?.close();
  });

  async function newInstance(kind: string): Promise<string> {
    const created = await createInstance(server.url, vnfdIds[kind]);
    instances.push(created.id);
    return created.id;
  }

  const instantiate = (id: string, additionalParams: Record<string, unknown> = {}) =>
    runTask(server.url, id, 'instantiate', {
      flavourId: 'simple',
      vimConnectionInfo: { os: { vimId, vimType: OPENSTACK_VIM_TYPE } },
      additionalParams,
    });

  async function terminate(id: string): Promise<void> {
    const op = await runTask(server.url, id, 'terminate', { terminationType: 'FORCEFUL' });
    assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
  }

  async function attemptsOf(opOccId: string): Promise<PlacementAttempt[]> {
    const row = await server.context.db.kysely
      .selectFrom('vnf_lcm_op_occs_v2')
      .select('placement_attempts')
      .where('id', '=', opOccId)
      .executeTakeFirstOrThrow();
    return row.placement_attempts ? JSON.parse(row.placement_attempts) : [];
  }

  test('instantiate with az2 full lands in az1 after one reselection', TIMEOUT, async () => {
    const id = await newInstance('two');
    await filler.fill('az2');
    try {
      const op = await instantiate(id);
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      const after = await getInstance(server.url, id);
      assert.deepEqual(
        vnfcs(after).map((v) => v.zoneId),
        ['az1', 'az1'],
      );
      // The NFVO spread the two VNFCs over az1 and az2: the one in az2 moved, once.
      const attempts = await attemptsOf(op.id);
      assert.equal(attempts.length, 1, JSON.stringify(attempts));
      assert.equal(attempts[0].zone, 'az2');
      assert.match(attempts[0].reason, /No valid host was found/);
      assert.deepEqual(
        attempts[0].next.map((n) => n.zone),
        ['az1'],
      );
      // Nova really has the servers where instantiatedVnfInfo says.
      for (const v of vnfcs(after)) {
        const found = await client.nova.server(v.computeResource.resourceId);
        assert.equal(found?.status, 'ACTIVE');
      }
    } finally {
      await filler.empty('az2');
    }
    await terminate(id);
  });

  test(
    'every zone full: FAILED_TEMP naming each zone tried; a retry completes once az1 has room',
    TIMEOUT,
    async () => {
      const id = await newInstance('two');
      await filler.fill('az2');
      await filler.fill('az1');
      let failedId = '';
      try {
        const op = await instantiate(id);
        failedId = op.id;
        assert.equal(op.operationState, 'FAILED_TEMP');
        const error = op.error as { detail: string; placementAttempts?: PlacementAttempt[] };
        assert.match(
          error.detail,
          /^No availability zone had room for VDU1 \(.+\): tried az[12] \(.*No valid host/,
        );
        assert.match(error.detail, /az1 \(.*\), az2 \(|az2 \(.*\), az1 \(/);
        assert.match(error.detail, /no zone left: every zone of the VIM \(az1, az2\) failed/);
        assert.equal(error.placementAttempts?.at(-1)?.stopped !== undefined, true);
      } finally {
        await filler.empty('az1');
      }
      try {
        const res = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${failedId}/retry`, { headers: H });
        assert.equal(res.status, 202, res.text);
        const op = await waitOpOcc(server.url, failedId, FINAL_STATES, OP_TIMEOUT_MS);
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const after = await getInstance(server.url, id);
        assert.deepEqual(
          vnfcs(after).map((v) => v.zoneId),
          ['az1', 'az1'],
        );
      } finally {
        await filler.empty('az2');
      }
      await terminate(id);
    },
  );

  test(
    'scale out granted a full zone lands in the other after one reselection; heal of a VNFC whose zone became full replaces it in the other',
    TIMEOUT,
    async () => {
      const id = await newInstance('one');
      const made = await instantiate(id);
      assert.equal(made.operationState, 'COMPLETED', JSON.stringify(made.error));
      const [first] = vnfcs(await getInstance(server.url, id));
      assert.ok(first?.zoneId);
      const home = first.zoneId;
      const other = home === 'az1' ? 'az2' : 'az1';

      // The NFVO grants the new VNFC the zone with fewer of the instance's VNFCs: the full one.
      await filler.fill(other);
      try {
        const op = await runTask(server.url, id, 'scale', {
          type: 'SCALE_OUT',
          aspectId: ASPECT,
          numberOfSteps: 1,
        });
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const attempts = await attemptsOf(op.id);
        assert.equal(attempts.length, 1, JSON.stringify(attempts));
        assert.equal(attempts[0].zone, other);
        assert.match(attempts[0].reason, /No valid host was found/);
        assert.deepEqual(
          attempts[0].next.map((n) => n.zone),
          [home],
        );
      } finally {
        await filler.empty(other);
      }
      const scaled = vnfcs(await getInstance(server.url, id));
      assert.deepEqual(
        scaled.map((v) => v.zoneId),
        [home, home],
      );
      for (const v of scaled) {
        const found = await client.nova.server(v.computeResource.resourceId);
        assert.equal(found?.['OS-EXT-AZ:availability_zone'], home);
      }

      // The first VNFC's zone fills up; its heal makes the new server in the other zone.
      await filler.fill(home);
      try {
        const vnfcInfo = (await getInstance(server.url, id)).instantiatedVnfInfo?.vnfcInfo ?? [];
        const target = vnfcInfo.find((v) => v.vnfcResourceInfoId === first.id);
        assert.ok(target);
        const op = await runTask(server.url, id, 'heal', { vnfcInstanceId: [target.id] });
        assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
        const attempts = await attemptsOf(op.id);
        assert.equal(attempts.length, 1, JSON.stringify(attempts));
        assert.equal(attempts[0].zone, home);
        assert.deepEqual(
          attempts[0].next.map((n) => [n.vnfcId, n.zone]),
          [[first.id, other]],
        );
      } finally {
        await filler.empty(home);
      }
      const healed = vnfcs(await getInstance(server.url, id));
      const moved = healed.find((v) => v.id === first.id);
      assert.equal(moved?.zoneId, other);
      assert.notEqual(moved?.computeResource.resourceId, first.computeResource.resourceId);
      const found = await client.nova.server(moved?.computeResource.resourceId as string);
      assert.equal(found?.['OS-EXT-AZ:availability_zone'], other);
      assert.equal(found?.status, 'ACTIVE');
      assert.equal(
        await client.nova.server(first.computeResource.resourceId),
        undefined,
        'the old server is gone',
      );
      await terminate(id);
    },
  );

  test(
    'zone anti-affinity of three VNFCs over two zones: refused, or placed with best effort',
    TIMEOUT,
    async () => {
      const id = await newInstance('three-apart');
      const refused = await instantiate(id);
      assert.equal(refused.operationState, 'ROLLED_BACK');
      assert.match(
        String(refused.error?.detail),
        /The grant was refused: No availability zone satisfies the zone anti-affinity rule 'spread' for VDU1 .* the VIM has 2 zone\(s\): az1, az2/,
      );
      const placed = await instantiate(id, { fallbackBestEffort: true });
      assert.equal(placed.operationState, 'COMPLETED', JSON.stringify(placed.error));
      const after = await getInstance(server.url, id);
      assert.equal(vnfcs(after).length, 3);
      assert.deepEqual(new Set(vnfcs(after).map((v) => v.zoneId)), new Set(['az1', 'az2']));
      await terminate(id);
    },
  );
});

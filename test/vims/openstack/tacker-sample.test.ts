/**
 * A real Tacker sample through Bosun's API on mini-openstack: sol_v2_common basic_lcms_min (its
 * BaseHOT lays VDU1 out as an AutoScalingGroup sized by `desired_capacity`, with a nested template
 * per member, and VDU2 as a plain server; an affinity server group holds them) is onboarded, the
 * OpenStack VIM registered, and the requests of Tacker's own functional test for it are sent:
 * instantiate (flavour only), scale out and in of VDU1_scale, heal of one VNFC, heal of the whole
 * VNF, terminate. After each step Nova's servers, Neutron's ports and Heat's stack are exactly what
 * instantiatedVnfInfo says. The VNFD names its image without shipping it, so — as with Tacker —
 * the image must be in Glance by that name: the test puts it there when the cloud lacks it.
 * SQLite only: the database is not what is tested here, and every run boots real servers.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import type { InstantiatedVnfInfo } from '../../../src/sol/instance-model.ts';
import { type OpenStackClient, openStackClient } from '../../../src/vims/drivers/openstack/client/client.ts';
import {
  createInstance,
  FINAL_STATES,
  getInstance,
  H,
  type Instance,
  type OpOcc,
  startTask,
  V2,
  waitOpOcc,
} from '../../http/vnflcm/lcm-support.ts';
import { onboard, sample } from '../../http/vnfpkgm/support.ts';
import { http } from '../../support/http.ts';
import { miniOpenStack, OPENSTACK_VIM_TYPE, testPrefix } from '../../support/mini-openstack.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { assertCloudMatches } from './cloud-view.ts';

const SAMPLE = 'sol_v2_common__basic_lcms_min.zip';
/** The VNFD's sw_image_data name (no image file in the package). */
const IMAGE = 'cirros-0.5.2-x86_64-disk';
const TIMEOUT = { timeout: 1_200_000 };
/** Heat and Nova take seconds per server on a busy machine: an operation may take minutes. */
const OP_TIMEOUT_MS = 600_000;

const vnfcsOf = (i: Instance, vduId?: string) =>
  (i.instantiatedVnfInfo?.vnfcResourceInfo ?? []).filter((v) => !vduId || v.vduId === vduId);

describe('a Tacker sample through the API on mini-openstack', () => {
  let client: OpenStackClient;
  let server: TestServer;
  let vimId: string;
  let vnfdId: string;
  let instanceId: string | undefined;
  let imageCreated: string | undefined;
  const operations: string[] = [];

  before(async () => {
    const cloud = await miniOpenStack();
    client = openStackClient(cloud.admin, cloud.policy);
    if (!(await client.glance.images({ name: IMAGE })).length) {
      const image = await client.glance.createImage({
        name: IMAGE,
        diskFormat: 'raw',
        containerFormat: 'bare',
      });
      imageCreated = image.id;
      await client.glance.upload(image.id, Readable.from([Buffer.alloc(4096)]));
    }
    server = await startTestServer('sqlite', {
      config: {
        worker: { pollIntervalMs: 50 },
        outbound: { allow: ['127.0.0.1', '::1', 'localhost'] },
      },
    });
    const registered = await http<{ id: string }>(server.url, 'POST', '/bosun/v1/vims', {
      body: {
        name: testPrefix('tacker-sample-vim'),
        vimType: OPENSTACK_VIM_TYPE,
        interfaceInfo: cloud.admin.interfaceInfo,
        accessInfo: cloud.admin.accessInfo,
      },
    });
    assert.equal(registered.status, 201, registered.text);
    vimId = registered.body.id;
    const onboarded = await onboard(server.url, sample(SAMPLE));
    assert.equal(onboarded.onboardingState, 'ONBOARDED', JSON.stringify(onboarded.onboardingFailureDetails));
    vnfdId = onboarded.vnfdId as string;
  });

  after(async () => {
    try {
      // What a failed test left: its failed operation rolled back or failed, its instance terminated.
      for (const opId of operations) {
        const op = await waitOpOcc(server.url, opId, FINAL_STATES, OP_TIMEOUT_MS).catch(() => undefined);
        if (op?.operationState !== 'FAILED_TEMP') continue;
        const res = await http(server.url, 'POST', `${V2}/vnf_lcm_op_occs/${opId}/fail`, { headers: H });
        if (res.status === 202)
          await waitOpOcc(server.url, opId, FINAL_STATES, OP_TIMEOUT_MS).catch(() => {});
      }
      const now = instanceId ? await getInstance(server.url, instanceId).catch(() => undefined) : undefined;
      if (instanceId && now?.instantiationState === 'INSTANTIATED')
        await run(instanceId, 'terminate', { terminationType: 'FORCEFUL' }).catch(() => undefined);
      await server?.close();
    } finally {
      if (imageCreated) await client.glance.deleteImage(imageCreated);
    }
  });

  async function run(id: string, task: string, body: Record<string, unknown>): Promise<OpOcc> {
    const opId = await startTask(server.url, id, task, body);
    operations.push(opId);
    const op = await waitOpOcc(server.url, opId, FINAL_STATES, OP_TIMEOUT_MS);
    assert.equal(op.operationState, 'COMPLETED', `${task}: ${JSON.stringify(op.error)}`);
    return op;
  }

  /** The instance as the API shows it, and the cloud holding exactly that. */
  async function shown(id: string): Promise<Instance> {
    const instance = await getInstance(server.url, id);
    await assertCloudMatches(
      client,
      server.context.db,
      id,
      instance.instantiatedVnfInfo as InstantiatedVnfInfo | undefined,
    );
    return instance;
  }

  test('instantiate, scale out and in, heal a VNFC and the VNF, terminate', TIMEOUT, async () => {
    const id = (await createInstance(server.url, vnfdId)).id;
    instanceId = id;
    await run(id, 'instantiate', {
      flavourId: 'simple',
      vimConnectionInfo: { vim1: { vimId, vimType: OPENSTACK_VIM_TYPE } },
    });
    const started = await shown(id);
    assert.equal(vnfcsOf(started, 'VDU1').length, 1);
    assert.equal(vnfcsOf(started, 'VDU2').length, 1);
    for (const v of vnfcsOf(started)) {
      assert.equal(v.metadata?.flavor, 'm1.tiny');
      assert.equal(typeof v.metadata?.host, 'string', 'Nova says on which host');
    }
    // The affinity server group of the BaseHOT: both VDUs on one host.
    assert.equal(new Set(vnfcsOf(started).map((v) => v.metadata?.host)).size, 1);

    const out = await run(id, 'scale', { type: 'SCALE_OUT', aspectId: 'VDU1_scale' });
    const grown = await shown(id);
    const [added, ...older] = vnfcsOf(grown, 'VDU1');
    assert.equal(older.length, 1);
    assert.deepEqual(
      out.resourceChanges?.affectedVnfcs.map((v) => [v.id, v.changeType]),
      [[added?.id, 'ADDED']],
    );
    assert.equal(
      older[0]?.computeResource.resourceId,
      vnfcsOf(started, 'VDU1')[0]?.computeResource.resourceId,
    );
    assert.deepEqual(grown.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'VDU1_scale', scaleLevel: 1 }]);

    // Scale in removes the newest VNFC, as Tacker does; the first keeps its server.
    const scaledIn = await run(id, 'scale', { type: 'SCALE_IN', aspectId: 'VDU1_scale' });
    const shrunk = await shown(id);
    assert.deepEqual(
      scaledIn.resourceChanges?.affectedVnfcs.map((v) => [v.id, v.changeType]),
      [[added?.id, 'REMOVED']],
      JSON.stringify({ changes: scaledIn.resourceChanges, before: grown.instantiatedVnfInfo }),
    );
    assert.deepEqual(vnfcsOf(shrunk), vnfcsOf(started));

    // Heal one VNFC (SOL002, by its vnfcInfo id): a new server for it, the same VNFC id.
    const target = shrunk.instantiatedVnfInfo?.vnfcInfo?.find((c) => c.vduId === 'VDU1');
    assert.ok(target);
    await run(id, 'heal', { vnfcInstanceId: [target.id] });
    const healed = await shown(id);
    for (const v of vnfcsOf(healed)) {
      const was = vnfcsOf(shrunk).find((x) => x.id === v.id);
      assert.equal(
        v.computeResource.resourceId !== was?.computeResource.resourceId,
        v.id === target.vnfcResourceInfoId,
        `only VNFC ${target.vnfcResourceInfoId} gets a new server`,
      );
    }

    // Heal of the whole VNF (SOL003, no VNFC named): every server is new.
    await run(id, 'heal', {});
    const whole = await shown(id);
    assert.deepEqual(
      vnfcsOf(whole).map((v) => v.id),
      vnfcsOf(healed).map((v) => v.id),
    );
    for (const v of vnfcsOf(whole)) {
      const was = vnfcsOf(healed).find((x) => x.id === v.id);
      assert.notEqual(v.computeResource.resourceId, was?.computeResource.resourceId);
    }

    await run(id, 'terminate', { terminationType: 'FORCEFUL' });
    const ended = await shown(id);
    assert.equal(ended.instantiationState, 'NOT_INSTANTIATED');
  });
});

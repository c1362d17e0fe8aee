/**
 * Changing an instance's flavour (a sample with two flavours) and package (from one sample to
 * another), on both LCM majors and both databases: the instance after the change, refusals at the
 * API (same flavour 409, unknown flavour 400, target package not ENABLED 422), the rollback of a
 * failed change restoring the instance as it was, and the packages' usageState following the
 * instance. The package change is a task on /vnflcm/v2 (change_vnfpkg); /vnflcm/v1 (v2.6.1) has
 * none: a PATCH names the new package by vnfPkgId (as Tacker's v1 API takes it) or its vnfdId.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { V2_HEADERS as PKG_HEADERS, V2 as PKG_V2 } from '../vnfpkgm/support.ts';
import { idOf } from './lcm-client.ts';
import { lcmServer, packageUsage, simFault } from './lcm-server.ts';
import { getInstance, H, INSTANTIATE, onboardOnce, runTask, V2 } from './lcm-support.ts';
import { MAJOR, MAJORS, type Major } from './majors.ts';
import { getInstanceV1, H1, V1, waitOpOccV1 } from './v1-support.ts';

const TWO_FLAVOURS = 'sol_v2_common__test_instantiate_vnf_with_old_image_or_volume.zip';
const PKG_FROM = 'sol_v2_common__basic_lcms_min_individual_vnfc.zip';
const PKG_TO = 'sol_v2_common__change_vnfpkg_or_update_min_individual_vnfc.zip';

for (const dialect of DIALECTS) {
  describe(`change flavour and change package (${dialect})`, () => {
    const server = lcmServer(dialect);
    const usage = (pkgId: string) => packageUsage(server.url, pkgId);
    /** Both sample packages onboarded, an instance of the first instantiated on the major. */
    const instantiatedOnFrom = async (m: Major) => {
      const from = await onboardOnce(server.url, PKG_FROM);
      const to = await onboardOnce(server.url, PKG_TO);
      const inst = await m.client.createInstance(server.url, from.vnfdId as string);
      assert.equal(
        (await m.client.runTask(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      assert.equal(await usage(from.id), 'IN_USE');
      assert.equal(await usage(to.id), 'NOT_IN_USE');
      return { from, to, inst };
    };
    const post = (id: string, name: string, body: object) =>
      http(server.url, 'POST', `${V2}/vnf_instances/${id}/${name}`, { headers: H, body });

    for (const m of MAJORS) {
      test(`${m.prefix} change flavour: simple → volume, refusals, rollback of a failed change`, async () => {
        const c = m.client;
        const postTask = (id: string, name: string, body: object) =>
          http(server.url, 'POST', `${m.prefix}/vnf_instances/${id}/${name}`, { headers: m.headers, body });
        const pkg = await onboardOnce(server.url, TWO_FLAVOURS);
        const inst = await c.createInstance(server.url, pkg.vnfdId as string);
        assert.equal(
          (await c.runTask(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
          'COMPLETED',
        );
        assert.ok(isProblem(await postTask(inst.id, 'change_flavour', { newFlavourId: 'simple' }), 409));
        assert.ok(isProblem(await postTask(inst.id, 'change_flavour', { newFlavourId: 'nope' }), 400));
        const before = await c.getInstance(server.url, inst.id);

        // A failing change is rolled back to the instance as it was.
        await simFault(server.url, 'server.create', 'fail');
        const failed = await c.runTask(server.url, inst.id, 'change_flavour', { newFlavourId: 'volume' });
        assert.equal(failed.operationState, 'FAILED_TEMP');
        assert.equal(
          (
            await http(server.url, 'POST', `${m.prefix}/vnf_lcm_op_occs/${failed.id}/rollback`, {
              headers: m.headers,
            })
          ).status,
          202,
        );
        assert.equal((await c.waitOpOcc(server.url, failed.id)).operationState, 'ROLLED_BACK');
        const restored = await c.getInstance(server.url, inst.id);
        assert.equal(restored.instantiatedVnfInfo?.flavourId, 'simple');
        assert.deepEqual(
          restored.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.id).sort(),
          before.instantiatedVnfInfo?.vnfcResourceInfo?.map((v) => v.id).sort(),
        );

        const changed = await c.runTask(server.url, inst.id, 'change_flavour', {
          newFlavourId: 'volume',
          instantiationLevelId: 'instantiation_level_2',
          extensions: { flavour: 'volume' },
        });
        assert.equal(changed.operationState, 'COMPLETED', JSON.stringify(changed.error));
        const now = await c.getInstance(server.url, inst.id);
        assert.equal(now.instantiatedVnfInfo?.flavourId, 'volume');
        assert.equal(now.instantiatedVnfInfo?.vnfcResourceInfo?.filter((v) => v.vduId === 'VDU1').length, 3);
        assert.deepEqual(now.instantiatedVnfInfo?.scaleStatus, [{ aspectId: 'VDU1_scale', scaleLevel: 2 }]);
        assert.deepEqual(now.extensions, { flavour: 'volume' });
        // Later operations work in the new flavour.
        const scaled = await c.runTask(server.url, inst.id, 'scale', {
          type: 'SCALE_IN',
          aspectId: 'VDU1_scale',
          numberOfSteps: 2,
        });
        assert.equal(scaled.operationState, 'COMPLETED', JSON.stringify(scaled.error));
        assert.equal(
          (await c.runTask(server.url, inst.id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
          'COMPLETED',
        );
      });
    }

    test('/vnflcm/v2 change_vnfpkg: the instance moves to the new VNFD; usageState follows', async () => {
      const { from, to, inst } = await instantiatedOnFrom(MAJOR.v2);
      assert.ok(isProblem(await post(inst.id, 'change_vnfpkg', { vnfdId: 'no-such-vnfd' }), 422));
      // A DISABLED target package: 422.
      const disable = await http(server.url, 'PATCH', `${PKG_V2}/${to.id}`, {
        headers: { ...PKG_HEADERS, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ operationalState: 'DISABLED' }),
      });
      assert.equal(disable.status, 200, disable.text);
      const disabled = await post(inst.id, 'change_vnfpkg', { vnfdId: to.vnfdId as string });
      assert.ok(isProblem(disabled, 422));
      assert.match((disabled.body as { detail: string }).detail, /DISABLED, not ENABLED/);
      await http(server.url, 'PATCH', `${PKG_V2}/${to.id}`, {
        headers: { ...PKG_HEADERS, 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ operationalState: 'ENABLED' }),
      });
      assert.ok(
        isProblem(
          await post(inst.id, 'change_vnfpkg', {
            vnfdId: to.vnfdId as string,
            additionalParams: { vdu_params: [{ vdu_id: 'VDU9' }] },
          }),
          400,
        ),
      );

      const before = await getInstance(server.url, inst.id);
      const changed = await runTask(server.url, inst.id, 'change_vnfpkg', {
        vnfdId: to.vnfdId as string,
        additionalParams: { upgrade_type: 'RollingUpdate', vdu_params: [{ vdu_id: 'VDU1' }] },
      });
      assert.equal(changed.operationState, 'COMPLETED', JSON.stringify(changed.error));
      assert.equal(changed.changedInfo?.vnfdId, to.vnfdId);
      const now = await getInstance(server.url, inst.id);
      assert.equal(now.vnfdId, to.vnfdId);
      // VDU1's VNFC was rebuilt on the new package's image (VDU1 has an image there); VDU2's was not touched.
      const vnfcOf = (i: typeof now, vdu: string) =>
        i.instantiatedVnfInfo?.vnfcResourceInfo?.find((v) => v.vduId === vdu);
      assert.ok(vnfcOf(now, 'VDU1')?.metadata?.image);
      assert.notEqual(vnfcOf(now, 'VDU1')?.metadata?.image, vnfcOf(before, 'VDU1')?.metadata?.image);
      assert.deepEqual(vnfcOf(now, 'VDU2'), vnfcOf(before, 'VDU2'));
      assert.deepEqual(
        changed.resourceChanges?.affectedVnfcs.map((c) => [c.vduId, c.changeType]),
        [['VDU1', 'MODIFIED']],
      );
      assert.equal(await usage(from.id), 'NOT_IN_USE');
      assert.equal(await usage(to.id), 'IN_USE');
      assert.equal(
        (await runTask(server.url, inst.id, 'terminate', { terminationType: 'FORCEFUL' })).operationState,
        'COMPLETED',
      );
      assert.equal(
        (await http(server.url, 'DELETE', `${V2}/vnf_instances/${inst.id}`, { headers: H })).status,
        204,
      );
      assert.equal(await usage(to.id), 'NOT_IN_USE');
    });

    test('/vnflcm/v1 PATCH with vnfPkgId (or vnfdId) moves the instance to that package; usageState follows', async () => {
      const { from, to, inst } = await instantiatedOnFrom(MAJOR.v1);
      const patch = await http(server.url, 'PATCH', `${V1}/vnf_instances/${inst.id}`, {
        headers: H1,
        body: { vnfPkgId: to.id },
      });
      assert.equal(patch.status, 202, patch.text);
      const op = await waitOpOccV1(server.url, idOf(patch.headers.get('location')));
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      // operationParams as accepted: the package named by its vnfdId, which the engine works with.
      assert.deepEqual(op.operationParams, { vnfdId: to.vnfdId });
      assert.equal(op.changedInfo?.vnfdId, to.vnfdId);
      const now = await getInstanceV1(server.url, inst.id);
      assert.equal(now.vnfdId, to.vnfdId);
      assert.equal(now.vnfPkgId, to.id);
      assert.equal(await usage(from.id), 'NOT_IN_USE');
      assert.equal(await usage(to.id), 'IN_USE');
      // And back by vnfdId.
      const back = await http(server.url, 'PATCH', `${V1}/vnf_instances/${inst.id}`, {
        headers: H1,
        body: { vnfdId: from.vnfdId },
      });
      assert.equal(back.status, 202, back.text);
      assert.equal(
        (await waitOpOccV1(server.url, idOf(back.headers.get('location')))).operationState,
        'COMPLETED',
      );
      assert.equal((await getInstanceV1(server.url, inst.id)).vnfPkgId, from.id);
      assert.equal(await usage(from.id), 'IN_USE');
      assert.equal(await usage(to.id), 'NOT_IN_USE');
    });
  });
}

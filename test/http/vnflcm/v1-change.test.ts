/**
 * /vnflcm/v1 change flavour (a sample with two flavours) and the v2.6.1 way to change an
 * instance's package — a PATCH naming the new package by vnfPkgId (as Tacker's v1 API takes it)
 * or its vnfdId — on SQLite and PostgreSQL: the instance after the change, changedInfo in the
 * v2.6.1 shape, and the packages' usageState following the instance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { V2_HEADERS as PKG_HEADERS, V2 as PKG_V2 } from '../vnfpkgm/support.ts';
import { INSTANTIATE, onboardOnce } from './lcm-support.ts';
import { assertInstanceV1, assertOpOccV1 } from './v1-schemas.ts';
import { createInstanceV1, getInstanceV1, H1, idOf, runTaskV1, V1, waitOpOccV1 } from './v1-support.ts';

const TWO_FLAVOURS = 'sol_v2_common__test_instantiate_vnf_with_old_image_or_volume.zip';
const PKG_FROM = 'sol_v2_common__basic_lcms_min_individual_vnfc.zip';
const PKG_TO = 'sol_v2_common__change_vnfpkg_or_update_min_individual_vnfc.zip';

for (const dialect of DIALECTS) {
  describe(`/vnflcm/v1 change flavour and package (${dialect})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, sim: { operationDelayMs: 0, gracefulWaitCapMs: 20 } },
      });
    });
    after(() => server.close());

    const usage = async (pkgId: string) =>
      (await http<{ usageState: string }>(server.url, 'GET', `${PKG_V2}/${pkgId}`, { headers: PKG_HEADERS }))
        .body.usageState;

    test('change flavour: simple → volume; the same flavour is 409, an unknown one 400', async () => {
      const pkg = await onboardOnce(server.url, TWO_FLAVOURS);
      const inst = await createInstanceV1(server.url, pkg.vnfdId as string);
      assert.equal(
        (await runTaskV1(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      const post = (body: object) =>
        http(server.url, 'POST', `${V1}/vnf_instances/${inst.id}/change_flavour`, { headers: H1, body });
      assert.ok(isProblem(await post({ newFlavourId: 'simple' }), 409));
      assert.ok(isProblem(await post({ newFlavourId: 'nope' }), 400));
      const changed = await runTaskV1(server.url, inst.id, 'change_flavour', { newFlavourId: 'volume' });
      assertOpOccV1(changed, 'change flavour op occ');
      assert.equal(changed.operationState, 'COMPLETED', JSON.stringify(changed.error));
      const now = await getInstanceV1(server.url, inst.id);
      assertInstanceV1(now);
      assert.equal(now.instantiatedVnfInfo?.flavourId, 'volume');
    });

    test('PATCH with vnfPkgId moves the instance to that package; usageState follows', async () => {
      const from = await onboardOnce(server.url, PKG_FROM);
      const to = await onboardOnce(server.url, PKG_TO);
      const inst = await createInstanceV1(server.url, from.vnfdId as string);
      assert.equal(
        (await runTaskV1(server.url, inst.id, 'instantiate', INSTANTIATE)).operationState,
        'COMPLETED',
      );
      assert.equal(await usage(from.id), 'IN_USE');
      assert.equal(await usage(to.id), 'NOT_IN_USE');
      const patch = await http(server.url, 'PATCH', `${V1}/vnf_instances/${inst.id}`, {
        headers: H1,
        body: { vnfPkgId: to.id },
      });
      assert.equal(patch.status, 202, patch.text);
      const op = await waitOpOccV1(server.url, idOf(patch.headers.get('location')));
      assertOpOccV1(op, 'modify op occ');
      assert.equal(op.operationState, 'COMPLETED', JSON.stringify(op.error));
      // operationParams as accepted: the package named by its vnfdId, which the engine works with.
      assert.deepEqual(op.operationParams, { vnfdId: to.vnfdId });
      assert.equal(op.changedInfo?.vnfdId, to.vnfdId);
      const now = await getInstanceV1(server.url, inst.id);
      assertInstanceV1(now);
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

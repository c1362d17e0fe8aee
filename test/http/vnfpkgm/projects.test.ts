/**
 * vnfdId is unique per project, not globally; packages of other projects are invisible (404).
 * OAuth 2.0 mode with a client per project.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { addClient, bearer, tokenOf } from '../auth/oauth2-support.ts';
import { onboard, type PkgInfo, singleFilePackage, V1 } from './support.ts';

const VNFD_ID = '5d1b5c4e-0000-4000-8000-00000000c001';

for (const dialect of DIALECTS) {
  describe(`vnfdId uniqueness per project on ${dialect}`, () => {
    let server: TestServer;
    let a: Record<string, string>;
    let b: Record<string, string>;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { auth: { mode: 'oauth2' }, worker: { pollIntervalMs: 50 } },
      });
      a = bearer(
        await tokenOf(server, await addClient(server, ['vnfpkgm:v1:all', 'vnfpkgm:v2:all'], 'tenant-a')),
      );
      b = bearer(
        await tokenOf(server, await addClient(server, ['vnfpkgm:v1:all', 'vnfpkgm:v2:all'], 'tenant-b')),
      );
    });
    after(() => server.close());

    test('same package twice in one project: the second fails naming the first; in another project: fine', async () => {
      const zip = await singleFilePackage(VNFD_ID);
      const first = await onboard(server.url, zip, a);
      assert.equal(first.onboardingState, 'ONBOARDED');
      const second = await onboard(server.url, zip, a);
      assert.equal(second.onboardingState, 'ERROR');
      assert.match(second.onboardingFailureDetails?.detail ?? '', new RegExp(`${VNFD_ID}.*${first.id}`));
      const other = await onboard(server.url, zip, b);
      assert.equal(other.onboardingState, 'ONBOARDED', JSON.stringify(other.onboardingFailureDetails));
      // Each project sees only its packages; the other's are 404.
      const listA = await http<PkgInfo[]>(server.url, 'GET', V1, { headers: a });
      assert.deepEqual(listA.body.map((p) => p.id).sort(), [first.id, second.id].sort());
      assert.ok(isProblem(await http(server.url, 'GET', `${V1}/${other.id}`, { headers: a }), 404));
      assert.ok(isProblem(await http(server.url, 'DELETE', `${V1}/${other.id}`, { headers: a }), 404));
      // onboarded_vnf_packages resolves the vnfdId within the caller's project.
      const byA = await http<PkgInfo>(server.url, 'GET', `/vnfpkgm/v2/onboarded_vnf_packages/${VNFD_ID}`, {
        headers: { ...a, Version: '2.1.0' },
      });
      const byB = await http<PkgInfo>(server.url, 'GET', `/vnfpkgm/v2/onboarded_vnf_packages/${VNFD_ID}`, {
        headers: { ...b, Version: '2.1.0' },
      });
      assert.equal(byA.body.id, first.id);
      assert.equal(byB.body.id, other.id);
    });

    test('without a token: 401', async () => {
      assert.equal((await http(server.url, 'GET', V1)).status, 401);
    });
  });
}

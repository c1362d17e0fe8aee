/** GET …/manifest: the .mf without its CMS block, or with it when include_signatures is given. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http, isProblem } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { CMS_BLOCK, onboard, singleFilePackage, V1 } from './support.ts';

for (const dialect of DIALECTS) {
  describe(`manifest on ${dialect}`, () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer(dialect, {
        config: { worker: { pollIntervalMs: 50 }, packages: { signaturePolicy: 'off' } },
      });
    });
    after(() => server.close());

    test('text/plain, CMS block stripped unless include_signatures; 404 without a manifest', async () => {
      const pkg = await onboard(
        server.url,
        await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000e001', { manifest: true }),
      );
      assert.equal(pkg.onboardingState, 'ONBOARDED', JSON.stringify(pkg.onboardingFailureDetails));
      const plain = await http(server.url, 'GET', `${V1}/${pkg.id}/manifest`);
      assert.equal(plain.status, 200);
      assert.equal(plain.headers.get('content-type'), 'text/plain');
      assert.match(plain.text, /Source: single.yaml/);
      assert.doesNotMatch(plain.text, /BEGIN CMS/);
      const signed = await http(server.url, 'GET', `${V1}/${pkg.id}/manifest?include_signatures`);
      assert.equal(signed.status, 200);
      assert.ok(signed.text.includes(CMS_BLOCK.trim()));
      const bare = await onboard(server.url, await singleFilePackage('5d1b5c4e-0000-4000-8000-00000000e002'));
      assert.ok(isProblem(await http(server.url, 'GET', `${V1}/${bare.id}/manifest`), 404));
      assert.ok(isProblem(await http(server.url, 'GET', `${V1}/${bare.id}/manifest?bogus=1`), 400));
    });
  });
}

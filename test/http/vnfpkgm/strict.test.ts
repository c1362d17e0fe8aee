/**
 * packages.strict over the package API on SQLite and PostgreSQL: a package with a problem Tacker
 * accepts (a management driver referenced by its host path) onboards by default and fails
 * onboarding under strict checking, with the diagnostic's code in onboardingFailureDetails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { patternPackage } from '../../vnfd/tacker-patterns.ts';
import { onboard } from './support.ts';

for (const dialect of DIALECTS) {
  describe(`packages.strict on ${dialect}`, () => {
    let lenient: TestServer;
    let strict: TestServer;
    before(async () => {
      const worker = { pollIntervalMs: 50 };
      lenient = await startTestServer(dialect, { config: { worker } });
      strict = await startTestServer(dialect, { config: { worker, packages: { strict: true } } });
    });
    after(async () => {
      await lenient.close();
      await strict.close();
    });

    test('a host-path hook artifact: ONBOARDED by default, ERROR naming it under strict checking', async () => {
      const { zip, vnfdId } = await patternPackage('hostPathArtifact');
      const ok = await onboard(lenient.url, zip);
      assert.equal(ok.onboardingState, 'ONBOARDED', JSON.stringify(ok.onboardingFailureDetails));
      assert.equal(ok.vnfdId, vnfdId);
      const refused = await onboard(strict.url, zip);
      assert.equal(refused.onboardingState, 'ERROR');
      assert.match(
        refused.onboardingFailureDetails?.detail ?? '',
        /error TOSCA_ARTIFACT_HOST_PATH: .*\/opt\/stack\/tacker\/.*strict/,
      );
    });
  });
}

/**
 * VnfPkgInfo (v1) validated against ETSI's JSON schema for SOL005 v2.6.1 (shared/etsi), for a
 * CREATED package, an ONBOARDED one with software images and artifacts (show and list), and one
 * whose onboarding failed (its onboardingFailureDetails is an attribute the schema allows).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { http } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { createPkg, NOT_A_CSAR, onboard, sample, V1 } from './support.ts';

const candidates = [
  new URL('../../../../shared/etsi/schemas-v2.6.1', import.meta.url).pathname,
  '/work/shared/etsi/schemas-v2.6.1',
];
const root = candidates.find((c) => existsSync(c));
if (!root) throw new Error(`the ETSI schemas are missing (looked in ${candidates.join(', ')})`);
const schema = JSON.parse(
  readFileSync(`${root}/SOL005/VNFPackageManagement-API/schemas/vnfPkgInfo.schema.json`, 'utf8'),
);
const validate = new Ajv({ strict: false, validateFormats: false, allErrors: true }).compile(schema);

function assertValid(value: unknown, what: string): void {
  assert.ok(validate(value), `${what}: ${JSON.stringify(validate.errors)}`);
}

describe('VnfPkgInfo against the SOL005 v2.6.1 schema', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer('sqlite', { config: { worker: { pollIntervalMs: 50 } } });
  });
  after(() => server.close());

  test('CREATED and ONBOARDED packages, show and list', async () => {
    const created = await createPkg(server.url, {}, { userDefinedData: { k: 'v' } });
    assertValid(created, 'created');
    const pkg = await onboard(server.url, sample('sample_kubernetes_driver.zip'));
    assert.equal(pkg.onboardingState, 'ONBOARDED');
    const show = await http(server.url, 'GET', `${V1}/${pkg.id}`);
    assert.ok(((show.body as { softwareImages: unknown[] }).softwareImages ?? []).length > 0);
    assertValid(show.body, 'show');
    const list = await http<unknown[]>(server.url, 'GET', `${V1}?all_fields`);
    for (const item of list.body) assertValid(item, 'list item');
  });

  test('a package whose onboarding failed: CREATED with onboardingFailureDetails, still valid', async () => {
    const failed = await onboard(server.url, NOT_A_CSAR);
    const show = await http<{ onboardingState: string; onboardingFailureDetails?: unknown }>(
      server.url,
      'GET',
      `${V1}/${failed.id}`,
    );
    assert.equal(show.body.onboardingState, 'CREATED');
    assert.ok(show.body.onboardingFailureDetails);
    assertValid(show.body, 'failed');
  });
});

/**
 * Every shared Tacker sample onboarded through the API (PUT, then poll until settled): valid
 * ones ONBOARDED with the facts of expected.json in VnfPkgInfo, invalid ones back to CREATED
 * with the reason in v2 onboardingFailureDetails. All samples on SQLite, a handful on
 * PostgreSQL, to keep the suite fast.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALECTS } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { EXPECTED_SAMPLES, type ExpectedSample } from '../../support/samples.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { onboard, type PkgInfo, sample, V1 } from './support.ts';

/** Ships an 18-byte placeholder image whose digest differs from the manifest's: needs imageHashMismatch=warning. */
const PLACEHOLDER_IMAGE_SAMPLE = 'sample_vnf_package_csar_meta_in_manifest.zip';
const PG_SUBSET = new Set([
  'functional2.zip',
  'sample_kubernetes_driver.zip',
  PLACEHOLDER_IMAGE_SAMPLE,
  'sample_vnf_package_csar_with_short_notation.zip',
  'test_csar_utils_data__sample_vnfpkg_no_meta_single_vnfd.zip',
]);

function checkValid(e: ExpectedSample, info: PkgInfo, v1: PkgInfo): void {
  assert.equal(
    info.onboardingState,
    'ONBOARDED',
    `${e.file}: ${JSON.stringify(info.onboardingFailureDetails)}`,
  );
  assert.equal(info.operationalState, 'ENABLED');
  assert.equal(v1.vnfdId, e.vnfdId);
  assert.equal(v1.vnfProvider, e.vnfProvider);
  assert.equal(v1.vnfProductName, e.vnfProductName);
  assert.equal(v1.vnfSoftwareVersion, e.vnfSoftwareVersion);
  assert.equal(v1.vnfdVersion, e.vnfdVersion);
  assert.equal(v1.checksum?.algorithm, 'sha-512');
  assert.deepEqual(v1.additionalArtifacts, e.additionalArtifacts ?? []);
  const images = (v1.softwareImages ?? []).map(({ createdAt, ...rest }) => {
    assert.ok(typeof createdAt === 'string');
    return rest;
  });
  // expected.json lists the VnfPkgInfo fields of each image; compare those.
  const expected = e.softwareImages ?? [];
  assert.equal(images.length, expected.length, `${e.file}: software images`);
  for (const want of expected) {
    const got =
      images.find((i) => i.id === want.id && i.name === want.name) ?? images.find((i) => i.id === want.id);
    assert.ok(got, `${e.file}: image ${String(want.id)}`);
    for (const [k, v] of Object.entries(want)) {
      if (k === 'containerFormat' || k === 'diskFormat')
        assert.equal(String(got[k]).toLowerCase(), String(v).toLowerCase());
      else if (k in got) assert.deepEqual(got[k], v, `${e.file}: image ${String(want.id)} ${k}`);
    }
  }
}

for (const dialect of DIALECTS) {
  describe(`every sample onboarded through the API on ${dialect}`, () => {
    let strict: TestServer;
    let lenient: TestServer;
    before(async () => {
      const config = { worker: { pollIntervalMs: 50 } };
      strict = await startTestServer(dialect, { config });
      lenient = await startTestServer(dialect, {
        config: { ...config, packages: { imageHashMismatch: 'warning' } },
      });
    });
    after(async () => {
      await strict.close();
      await lenient.close();
    });
    const samples = EXPECTED_SAMPLES.filter((e) => dialect === 'sqlite' || PG_SUBSET.has(e.file));
    for (const e of samples) {
      test(`${e.file}: ${e.valid ? 'ONBOARDED with its facts' : `ERROR, reason contains ${e.errorContains}`}`, async () => {
        const server = e.file === PLACEHOLDER_IMAGE_SAMPLE ? lenient : strict;
        const info = await onboard(server.url, sample(e.file));
        if (e.valid) {
          const v1 = (await http<PkgInfo>(server.url, 'GET', `${V1}/${info.id}`)).body;
          checkValid(e, info, v1);
        } else {
          assert.equal(info.onboardingState, 'ERROR');
          assert.equal(info.operationalState, 'DISABLED');
          const failure = JSON.stringify(info.onboardingFailureDetails);
          assert.ok(failure.includes(e.errorContains ?? '\u0000'), `${e.file}: ${failure.slice(0, 400)}`);
        }
      });
    }
    if (dialect === 'sqlite') {
      test('the placeholder-image sample is refused when image digests must match', async () => {
        const info = await onboard(strict.url, sample(PLACEHOLDER_IMAGE_SAMPLE));
        assert.equal(info.onboardingState, 'ERROR');
        assert.match(info.onboardingFailureDetails?.detail ?? '', /CSAR_HASH_MISMATCH/);
      });
    }
  });
}

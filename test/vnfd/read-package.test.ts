/**
 * Every shared sample read end to end (container, manifest, TOSCA, model) by the one entry
 * point onboarding and the CLI use: the valid ones give exactly the facts of expected.json, the
 * invalid ones an error naming what is at fault. The valid ones pass strict checking as well.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readPackage } from '../../src/vnfd/read-package.ts';
import { EXPECTED_SAMPLES, SAMPLES_DIR } from '../support/samples.ts';

/**
 * This sample ships an 18-byte placeholder where its manifest declares the digest of the real
 * cirros image. Tacker never hashes images, so it onboards there; Bosun verifies images and
 * rejects it by default, and accepts it only when told to treat image digests as Tacker does.
 */
const PLACEHOLDER_IMAGE_SAMPLE = 'sample_vnf_package_csar_meta_in_manifest.zip';

describe('readPackage over the shared samples', () => {
  test(`${PLACEHOLDER_IMAGE_SAMPLE}: an image whose digest does not match is rejected by default`, async () => {
    const report = await readPackage(join(SAMPLES_DIR, PLACEHOLDER_IMAGE_SAMPLE));
    assert.equal(report.valid, false);
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    assert.deepEqual(
      errors.map((d) => d.code),
      ['CSAR_HASH_MISMATCH'],
    );
    assert.match(
      errors[0].message,
      /Files\/images\/cirros-0\.5\.2-x86_64-disk\.img: SHA-512 digest is 385d2049.* declares 6b813aa4/,
    );
  });

  for (const e of EXPECTED_SAMPLES) {
    test(`${e.file} is ${e.valid ? 'valid' : 'rejected'}`, async () => {
      const imageHashMismatch = e.file === PLACEHOLDER_IMAGE_SAMPLE ? 'warning' : 'error';
      const report = await readPackage(join(SAMPLES_DIR, e.file), { imageHashMismatch });
      const errors = report.diagnostics.filter((d) => d.severity === 'error');
      if (!e.valid) {
        assert.equal(report.valid, false);
        const needle = e.errorContains!.toLowerCase();
        assert.ok(
          errors.some((d) => d.message.toLowerCase().includes(needle)),
          `no error mentions '${e.errorContains}': ${errors.map((d) => d.message).join(' | ')}`,
        );
        return;
      }
      assert.deepEqual(errors, [], 'no errors');
      assert.equal(report.valid, true);
      const v = report.vnfd!;
      assert.equal(v.vnf.descriptorId, e.vnfdId);
      assert.equal(v.vnf.provider, e.vnfProvider);
      assert.equal(v.vnf.productName, e.vnfProductName);
      assert.equal(v.vnf.softwareVersion, e.vnfSoftwareVersion);
      assert.equal(v.vnf.descriptorVersion, e.vnfdVersion);
      assert.equal(v.entryDefinitions, e.entryDefinitions);
      assert.deepEqual(v.flavours.map((f) => f.flavourId).sort(), e.flavours);
      assert.deepEqual(v.additionalArtifacts, e.additionalArtifacts);
      const images = v.softwareImages.map((i) => {
        const picked: Record<string, unknown> = {};
        for (const key of Object.keys(e.softwareImages![0] ?? {}))
          picked[key] = (i as unknown as Record<string, unknown>)[key];
        return picked;
      });
      assert.deepEqual(images, e.softwareImages);
      // None of them has a problem that only Tacker tolerates: strict checking accepts them too.
      const strict = await readPackage(join(SAMPLES_DIR, e.file), { imageHashMismatch, strict: true });
      assert.deepEqual(
        strict.diagnostics.filter((d) => d.severity === 'error'),
        [],
        'no errors under strict checking',
      );
    });
  }
});

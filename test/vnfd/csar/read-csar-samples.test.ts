/**
 * The real Tacker sample packages: valid ones read without error and give the expected entry
 * definitions and additional artifacts; the ones whose defect is in the container are rejected
 * with a message naming the fault.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { additionalArtifacts } from '../../../src/vnfd/csar/artifacts.ts';
import { type ReadCsarOptions, readCsar } from '../../../src/vnfd/csar/read-csar.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';

const SAMPLES = SAMPLES_DIR;

interface Expected {
  file: string;
  valid: boolean;
  entryDefinitions?: string;
  additionalArtifacts?: unknown[];
  errorContains?: string;
}

const expected: Expected[] = JSON.parse(readFileSync(join(SAMPLES, 'expected.json'), 'utf8'));
const CONTAINER_DEFECTS = [
  'sample_vnf_package_csar_in_meta_and_manifest_false.zip',
  'sample_vnf_package_csar_in_meta_and_manifest_false_source.zip',
  'sample_vnf_package_csar_in_meta_and_manifest_missing_value.zip',
];

async function read(file: string, options: ReadCsarOptions = {}) {
  const opened = await openZipPackage(join(SAMPLES, file));
  assert.ok(opened.files, `${file} opens`);
  try {
    return await readCsar(opened.files, options);
  } finally {
    await opened.files.close();
  }
}

/**
 * This valid sample's manifest declares the SHA-512 of the real cirros-0.5.2 image while the zip
 * ships an 18-byte placeholder (README "Images"); Tacker never checks images, Bosun does.
 */
const PLACEHOLDER_IMAGE_SAMPLE = 'sample_vnf_package_csar_meta_in_manifest.zip';
const CIRROS = 'Files/images/cirros-0.5.2-x86_64-disk.img';

for (const sample of expected.filter((e) => e.valid)) {
  test(`valid sample ${sample.file}: no errors, entry definitions and additional artifacts`, async () => {
    const info = await read(sample.file, { imageHashMismatch: 'warning' });
    assert.deepEqual(
      info.diagnostics.filter((d) => d.severity === 'error'),
      [],
    );
    assert.equal(info.entryDefinitions, sample.entryDefinitions);
    assert.deepEqual(additionalArtifacts(info), sample.additionalArtifacts ?? []);
    assert.ok(info.artifacts.every((a) => a.verified !== false || a.path === CIRROS));
  });
}

test('the placeholder image of sample_vnf_package_csar_meta_in_manifest is hash-checked, not skipped', async () => {
  const info = await read(PLACEHOLDER_IMAGE_SAMPLE);
  const image = info.artifacts.find((a) => a.path === CIRROS);
  assert.equal(image?.image, true);
  assert.equal(image?.algorithm, 'sha-512');
  assert.equal(image?.verified, false);
  const errors = info.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].code, 'CSAR_HASH_MISMATCH');
  assert.match(errors[0].message, /cirros-0\.5\.2-x86_64-disk\.img.*SHA-512.*385d2049.*6b813aa4/);
});

for (const sample of expected.filter((e) => CONTAINER_DEFECTS.includes(e.file))) {
  test(`invalid sample ${sample.file}: an error mentions ${sample.errorContains}`, async () => {
    const info = await read(sample.file);
    const wanted = sample.errorContains!.toLowerCase();
    const errors = info.diagnostics.filter((d) => d.severity === 'error');
    assert.ok(
      errors.some((d) => d.message.toLowerCase().includes(wanted)),
      `errors: ${JSON.stringify(errors)}`,
    );
  });
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCsar } from '../../../src/vnfd/csar/read-csar.ts';
import {
  digest,
  type FixtureFiles,
  IMAGE,
  IMAGE_PATH,
  manifestText,
  openFixture,
  SCRIPT_PATH,
  validPackage,
} from '../../support/csar-fixtures.ts';

async function read(files: FixtureFiles, options?: Parameters<typeof readCsar>[1]) {
  const fixture = await openFixture(files);
  try {
    return await readCsar(fixture.files, options);
  } finally {
    await fixture.cleanup();
  }
}

test('TOSCA-Metadata package: layout, meta, manifest and verified artifacts (image included)', async () => {
  const info = await read(validPackage());
  assert.deepEqual(info.diagnostics, []);
  assert.equal(info.layout, 'tosca-metadata');
  assert.equal(info.entryDefinitions, 'Definitions/vnfd.yaml');
  assert.equal(info.meta?.keys['ETSI-Entry-Tests'], 'Tests');
  assert.equal(info.manifest?.file, 'vnf.mf');
  assert.equal(info.manifest?.metadata.vnf_product_name, 'Fixture VNF');
  // The script is declared in TOSCA.meta and in the manifest: listed once.
  assert.deepEqual(
    info.artifacts.map((a) => [a.path, a.declaredIn, a.image, a.verified]),
    [
      [SCRIPT_PATH, 'TOSCA-Metadata/TOSCA.meta', false, true],
      [IMAGE_PATH, 'vnf.mf', true, true],
    ],
  );
  assert.deepEqual(info.signature, {
    policy: 'verify-if-present',
    manifestSigned: false,
    certificateFile: undefined,
  });
});

test('root YAML package with SOL004 v3 metadata', async () => {
  const info = await read(validPackage({ layout: 'root-yaml', metadata: 'v3', algorithm: 'SHA-384' }));
  assert.deepEqual(info.diagnostics, []);
  assert.equal(info.layout, 'root-yaml');
  assert.equal(info.entryDefinitions, 'vnf.yaml');
  assert.equal(info.meta, undefined);
  assert.equal(info.manifest?.metadata.vnf_software_version, '2.1');
  assert.deepEqual(
    info.artifacts.map((a) => [a.algorithm, a.verified]),
    [
      ['sha-384', true],
      ['sha-384', true],
    ],
  );
});

test('a script whose content changed: CSAR_HASH_MISMATCH names file, algorithm and both digests', async () => {
  const files = validPackage({ layout: 'root-yaml' });
  files[SCRIPT_PATH] = 'echo tampered\n';
  const info = await read(files);
  const errors = info.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].code, 'CSAR_HASH_MISMATCH');
  assert.equal(errors[0].file, 'vnf.mf');
  // The Hash line of the script's block, after the 5-line metadata block and a blank line.
  assert.equal(errors[0].line, 9);
  assert.ok(errors[0].message.includes(SCRIPT_PATH));
  assert.ok(errors[0].message.includes('SHA-256'));
  assert.ok(errors[0].message.includes(digest('SHA-256', 'echo tampered\n')));
  assert.ok(errors[0].message.includes(digest('SHA-256', '#!/bin/sh\necho installing\n')));
  assert.equal(info.artifacts.find((a) => a.path === SCRIPT_PATH)?.verified, false);
});

test('an image whose hash does not match is an error (Tacker would skip it)', async () => {
  const files = validPackage();
  const declared = digest('SHA-256', IMAGE);
  files[IMAGE_PATH] = Buffer.alloc(IMAGE.length, 8);
  const info = await read(files);
  const errors = info.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => d.code),
    ['CSAR_HASH_MISMATCH'],
  );
  assert.ok(errors[0].message.includes(IMAGE_PATH));
  assert.ok(errors[0].message.includes(declared));
  assert.ok(errors[0].message.includes(digest('SHA-256', files[IMAGE_PATH])));
  assert.equal(info.artifacts.find((a) => a.path === IMAGE_PATH)?.verified, false);
  const lenient = await read(files, { imageHashMismatch: 'warning' });
  assert.deepEqual(
    lenient.diagnostics.map((d) => [d.code, d.severity]),
    [['CSAR_HASH_MISMATCH', 'warning']],
  );
});

test('all problems are reported in one pass', async () => {
  const files = validPackage();
  files['TOSCA-Metadata/TOSCA.meta'] = `${files['TOSCA-Metadata/TOSCA.meta']}`.replace(
    'vnf.mf',
    'manifest.mf1',
  );
  files[SCRIPT_PATH] = 'changed';
  files['manifest.mf1'] = manifestText(files, [SCRIPT_PATH]);
  const info = await read(files);
  const codes = info.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
  assert.deepEqual(codes.sort(), ['CSAR_HASH_MISMATCH', 'TOSCA_META_BAD_MANIFEST_NAME']);
  assert.equal(info.manifest, undefined);
});

test('a package without TOSCA.meta or a root yaml cannot be laid out', async () => {
  const info = await read({ 'Files/a.txt': 'x' });
  assert.equal(info.entryDefinitions, undefined);
  assert.deepEqual(
    info.diagnostics.map((d) => d.code),
    ['CSAR_ROOT_YAML_COUNT'],
  );
});

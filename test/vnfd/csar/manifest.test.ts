import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseManifest } from '../../../src/vnfd/csar/manifest.ts';
import {
  fixtureFiles,
  IMAGE_PATH,
  manifestText,
  SCRIPT_PATH,
  validPackage,
} from '../../support/csar-fixtures.ts';

const MF = 'vnf.mf';
const fixture = validPackage();
const parse = async (text: string) => parseManifest(text, MF, await fixtureFiles(fixture));

test('SOL004 v2 metadata, artifacts and non-MANO artifact sets are parsed', async () => {
  const r = await parse(fixture[MF] as string);
  assert.deepEqual(r.diagnostics.list, []);
  assert.deepEqual(r.manifest.metadata, {
    vnf_provider_id: 'Bosun',
    vnf_product_name: 'Fixture VNF',
    vnf_release_date_time: '2026-01-02T03:04:05+00:00',
    vnf_package_version: '1.0',
  });
  assert.deepEqual(r.manifest.nonManoArtifactSets, { onap_ves_events: ['Artifacts/Events/ves.yaml'] });
  assert.equal(r.manifest.signed, false);
  assert.deepEqual(
    r.artifacts.map((a) => [a.path, a.algorithm, a.image, a.declaredIn]),
    [
      [SCRIPT_PATH, 'sha-256', false, MF],
      [IMAGE_PATH, 'sha-256', true, MF],
    ],
  );
});

test('SOL004 v3 metadata names are accepted', async () => {
  const r = await parse(manifestText(fixture, [SCRIPT_PATH], { metadata: 'v3' }));
  assert.deepEqual(r.diagnostics.list, []);
  assert.equal(r.manifest.metadata.vnfd_id, 'b1bb0ce7-ebca-4fa7-95ed-4840d7000001');
  assert.equal(r.manifest.metadata.vnf_provider_name, 'Bosun');
  assert.equal(r.manifest.metadata.compatible_specification_versions, '2.6.1,3.3.1');
});

test('a metadata block lacking required keys is an error listing them, at the block line', async () => {
  const r = await parse('metadata:\n  vnf_provider_id: Bosun\n  vnf_product_name: X\n');
  const e = r.diagnostics.errors.find((d) => d.code === 'MANIFEST_METADATA_MISSING_KEY');
  assert.equal(e?.line, 1);
  assert.match(e?.message ?? '', /vnf_release_date_time, vnf_package_version/);
});

test('a v3 metadata block is checked against the v3 names', async () => {
  const r = await parse('metadata:\nvnfd_id: x\nvnf_provider_name: p\nvnf_product_name: n\n');
  const e = r.diagnostics.errors.find((d) => d.code === 'MANIFEST_METADATA_MISSING_KEY');
  assert.match(e?.message ?? '', /vnf_software_version/);
});

test('a manifest without metadata is only a warning (Tacker samples have none)', async () => {
  const r = await parse(manifestText(fixture, [SCRIPT_PATH], { metadata: 'none' }));
  assert.deepEqual(
    r.diagnostics.list.map((d) => [d.code, d.severity]),
    [['MANIFEST_NO_METADATA', 'warning']],
  );
});

test('empty Algorithm, unsupported algorithm and missing Source are errors with line numbers', async () => {
  const text = [
    'Source: Scripts/install.sh',
    'Algorithm:',
    'Hash: 00',
    '',
    'Source: Scripts/install.sh',
    'Algorithm: SHA-255',
    'Hash: 00',
    '',
    'Source: Scripts/install.s',
    'Algorithm: SHA-256',
    'Hash: 00',
    '',
  ].join('\n');
  const errors = (await parse(text)).diagnostics.errors;
  const find = (code: string) => errors.find((d) => d.code === code);
  assert.equal(find('CSAR_ARTIFACT_NO_ALGORITHM')?.line, 2);
  assert.match(find('CSAR_ARTIFACT_NO_ALGORITHM')?.message ?? '', /Algorithm/);
  assert.equal(find('CSAR_ARTIFACT_BAD_ALGORITHM')?.line, 6);
  assert.match(find('CSAR_ARTIFACT_BAD_ALGORITHM')?.message ?? '', /SHA-255/);
  assert.equal(find('CSAR_ARTIFACT_NOT_FOUND')?.line, 9);
  assert.match(find('CSAR_ARTIFACT_NOT_FOUND')?.message ?? '', /Scripts\/install\.s"/);
});

test('http(s) Sources are external artifacts, not looked up in the package', async () => {
  const r = await parse('Source: https://example.com/images/disk.qcow2\nAlgorithm: SHA-512\nHash: aa\n');
  assert.deepEqual(r.diagnostics.errors, []);
  assert.equal(r.artifacts[0].path, 'https://example.com/images/disk.qcow2');
  assert.equal(r.artifacts[0].image, true);
});

test('a trailing CMS block marks the manifest signed and is cut off the signed text', async () => {
  const body = manifestText(fixture, [SCRIPT_PATH]);
  const r = await parse(`${body}\n-----BEGIN CMS-----\nMIIB\n-----END CMS-----\n`);
  assert.deepEqual(r.diagnostics.errors, []);
  assert.equal(r.manifest.signed, true);
  assert.equal(r.cms?.signedText, `${body}\n`);
  assert.equal(r.cms?.line, body.split('\n').length + 1);
  assert.equal(r.artifacts.length, 1);
});

test('text after the CMS block and an unterminated CMS block are errors', async () => {
  assert.ok(
    (await parse('-----BEGIN CMS-----\nMIIB\n-----END CMS-----\nSource: x\n')).diagnostics.errors.some(
      (d) => d.code === 'MANIFEST_TEXT_AFTER_CMS',
    ),
  );
  assert.ok(
    (await parse('-----BEGIN CMS-----\nMIIB\n')).diagnostics.errors.some(
      (d) => d.code === 'MANIFEST_CMS_UNTERMINATED',
    ),
  );
});

test('per-artifact Signature and Certificate files are recorded and must exist', async () => {
  const r = await parse(
    `Source: ${SCRIPT_PATH}\nAlgorithm: SHA-256\nHash: 00\nSignature: Scripts/install.sh.sig.cms\nCertificate: Scripts/install.sh.cert\n`,
  );
  assert.equal(r.artifacts[0].signatureFile, 'Scripts/install.sh.sig.cms');
  assert.equal(r.artifactCertificates.get(SCRIPT_PATH), 'Scripts/install.sh.cert');
  assert.deepEqual(
    r.diagnostics.errors.map((d) => [d.code, d.line]),
    [
      ['CSAR_ARTIFACT_NOT_FOUND', 4],
      ['CSAR_ARTIFACT_NOT_FOUND', 5],
    ],
  );
});

test('unknown keys in an artifact block are warnings; quoted values are unquoted', async () => {
  const r = await parse(`Source: "${SCRIPT_PATH}"\nAlgorithm: 'SHA-256'\nHash: 00\nColour: blue\n`);
  assert.deepEqual(
    r.diagnostics.list.map((d) => [d.code, d.severity, d.line]),
    [
      ['MANIFEST_UNKNOWN_KEY', 'warning', 4],
      ['MANIFEST_NO_METADATA', 'warning', undefined],
    ],
  );
  assert.equal(r.artifacts[0].path, SCRIPT_PATH);
  assert.equal(r.artifacts[0].algorithmAsWritten, 'SHA-256');
});

test('metadata keys and non-MANO sets named like Object.prototype members (constructor, __proto__) are data', async () => {
  const r = await parse(
    'metadata:\n  __proto__: a\n  constructor: b\n\nnon_mano_artifact_sets:\n  constructor:\n    Source: Artifacts/Events/ves.yaml\n  __proto__:\n    Source: Artifacts/Events/ves.yaml\n',
  );
  assert.deepEqual(Object.entries(r.manifest.metadata), [
    ['__proto__', 'a'],
    ['constructor', 'b'],
  ]);
  assert.deepEqual(Object.entries(r.manifest.nonManoArtifactSets), [
    ['constructor', ['Artifacts/Events/ves.yaml']],
    ['__proto__', ['Artifacts/Events/ves.yaml']],
  ]);
  assert.deepEqual(
    r.diagnostics.list.map((d) => d.code),
    ['MANIFEST_METADATA_MISSING_KEY'],
  );
});

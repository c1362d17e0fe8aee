import assert from 'node:assert/strict';
import { test } from 'node:test';
import { otherDefinitions, parseToscaMeta } from '../../../src/vnfd/csar/tosca-meta.ts';
import { digest, fixtureFiles, SCRIPT, SCRIPT_PATH, validPackage } from '../../support/csar-fixtures.ts';

const META = 'TOSCA-Metadata/TOSCA.meta';
const fixture = validPackage();
const parse = async (text: string, files = fixture) => parseToscaMeta(text, await fixtureFiles(files));

test('every SOL004 first-block key and the per-file blocks are parsed', async () => {
  const r = await parse(fixture[META] as string);
  assert.deepEqual(r.diagnostics.list, []);
  assert.deepEqual(r.meta.keys, {
    'TOSCA-Meta-File-Version': '1.0',
    'CSAR-Version': '1.1',
    'Created-By': 'Bosun tests',
    'Entry-Definitions': 'Definitions/vnfd.yaml',
    'ETSI-Entry-Manifest': 'vnf.mf',
    'ETSI-Entry-Change-Log': 'ChangeLog.txt',
    'ETSI-Entry-Licenses': 'Licenses',
    'ETSI-Entry-Tests': 'Tests',
    'Other-Definitions': 'Definitions/other.yaml',
  });
  assert.deepEqual(otherDefinitions(r.meta), ['Definitions/other.yaml']);
  assert.equal(r.meta.fileBlocks.length, 1);
  assert.equal(r.meta.fileBlocks[0].name, SCRIPT_PATH);
  assert.equal(r.meta.fileBlocks[0].line, 11);
  assert.equal(r.meta.fileBlocks[0].keys['Content-Type'], 'application/x-sh');
  assert.equal(r.artifacts.length, 1);
  assert.deepEqual(
    { ...r.artifacts[0] },
    {
      path: SCRIPT_PATH,
      declaredIn: META,
      image: false,
      algorithmAsWritten: 'SHA-256',
      algorithm: 'sha-256',
      hash: digest('SHA-256', SCRIPT),
    },
  );
});

test('keys are matched case-insensitively (Tacker samples write Created-by) and CRLF is accepted', async () => {
  const r = await parse(
    'TOSCA-Meta-File-Version: 1.0\r\nCreated-by: x\r\nCSAR-Version: 1.1\r\nEntry-Definitions: Definitions/vnfd.yaml\r\n',
  );
  assert.deepEqual(r.diagnostics.list, []);
  assert.equal(r.meta.keys['Created-By'], 'x');
});

test('a missing Entry-Definitions is an error; missing SOL004 keys are warnings', async () => {
  const r = await parse('TOSCA-Meta-File-Version: 1.0\n');
  assert.ok(r.diagnostics.errors.some((d) => d.code === 'TOSCA_META_NO_ENTRY_DEFINITIONS'));
  const warnings = r.diagnostics.list.filter((d) => d.severity === 'warning').map((d) => d.message);
  assert.ok(warnings.some((m) => m.includes('CSAR-Version')));
  assert.ok(warnings.some((m) => m.includes('Created-By')));
});

test('an unknown first-block key is a warning with its line', async () => {
  const r = await parse(
    'TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: me\nEntry-Definitions: Definitions/vnfd.yaml\nFavourite-Colour: blue\n',
  );
  assert.deepEqual(r.diagnostics.list, [
    {
      code: 'TOSCA_META_UNKNOWN_KEY',
      severity: 'warning',
      message: 'unknown TOSCA.meta key "Favourite-Colour"',
      file: META,
      line: 5,
    },
  ]);
});

test('first-block and per-file keys named like Object.prototype members are unknown keys, not duplicates', async () => {
  const r = await parse(
    'TOSCA-Meta-File-Version: 1.0\nCSAR-Version: 1.1\nCreated-By: me\nEntry-Definitions: Definitions/vnfd.yaml\nconstructor: x\n__proto__: y\n\nName: Scripts/install.sh\n__proto__: z\n',
  );
  assert.deepEqual(
    r.diagnostics.list.map((d) => [d.code, d.line]),
    [
      ['TOSCA_META_UNKNOWN_KEY', 5],
      ['TOSCA_META_UNKNOWN_KEY', 6],
    ],
  );
  assert.equal(Object.hasOwn(r.meta.keys, '__proto__'), true);
  assert.deepEqual(Object.entries(r.meta.fileBlocks[0].keys), [
    ['Name', 'Scripts/install.sh'],
    ['__proto__', 'z'],
  ]);
});

test('a malformed line is an error with its line number', async () => {
  const r = await parse(
    'TOSCA-Meta-File-Version: 1.0\nthis line has no colon\nEntry-Definitions: Definitions/vnfd.yaml\n',
  );
  const bad = r.diagnostics.errors.find((d) => d.code === 'TOSCA_META_MALFORMED_LINE');
  assert.equal(bad?.line, 2);
  assert.match(bad?.message ?? '', /this line has no colon/);
});

test('Entry-Definitions naming a missing file is an error naming it', async () => {
  const r = await parse('Entry-Definitions: Definitions/nope.yaml\n');
  const e = r.diagnostics.errors.find((d) => d.code === 'TOSCA_META_ENTRY_DEFINITIONS_MISSING');
  assert.match(e?.message ?? '', /Definitions\/nope\.yaml/);
  assert.equal(e?.line, 1);
});

test('ETSI-Entry-Manifest must end with .mf: the error mentions the name', async () => {
  const r = await parse('Entry-Definitions: Definitions/vnfd.yaml\nETSI-Entry-Manifest: manifest.mf1\n');
  const e = r.diagnostics.errors.find((d) => d.code === 'TOSCA_META_BAD_MANIFEST_NAME');
  assert.match(e?.message ?? '', /manifest\.mf1/);
  assert.equal(e?.line, 2);
});

test('ETSI-Entry-* and Other-Definitions naming missing files are errors', async () => {
  const r = await parse(
    [
      'Entry-Definitions: Definitions/vnfd.yaml',
      'ETSI-Entry-Manifest: missing.mf',
      'ETSI-Entry-Change-Log: Missing.txt',
      'ETSI-Entry-Licenses: NoLicenses',
      'ETSI-Entry-Certificate: missing.cert',
      'ETSI-Entry-Tests: NoTests',
      'Other-Definitions: Definitions/other.yaml Definitions/gone.yaml',
    ].join('\n'),
  );
  const missing = r.diagnostics.errors.filter((d) => d.code === 'TOSCA_META_FILE_MISSING').map((d) => d.line);
  assert.deepEqual(missing, [2, 3, 4, 5, 6, 7]);
  assert.ok(r.diagnostics.errors.some((d) => d.message.includes('Definitions/gone.yaml')));
});

test('a per-file block with an empty Algorithm is an error mentioning Algorithm at its line', async () => {
  const r = await parse(
    `Entry-Definitions: Definitions/vnfd.yaml\n\nName: ${SCRIPT_PATH}\nAlgorithm:\nHash: abc\n`,
  );
  const e = r.diagnostics.errors.find((d) => d.code === 'CSAR_ARTIFACT_NO_ALGORITHM');
  assert.match(e?.message ?? '', /Algorithm/);
  assert.equal(e?.line, 4);
});

test('image blocks without a hash are recorded but are not artifacts', async () => {
  const r = await parse(
    'Entry-Definitions: Definitions/vnfd.yaml\n\nName: Files/images/disk.qcow2\nContent-Type: application/x-iso9066-image\n',
  );
  assert.equal(r.meta.fileBlocks.length, 1);
  assert.deepEqual(r.artifacts, []);
});

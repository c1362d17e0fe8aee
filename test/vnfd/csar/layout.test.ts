import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decideLayout } from '../../../src/vnfd/csar/layout.ts';
import { parseToscaMeta } from '../../../src/vnfd/csar/tosca-meta.ts';
import { type FixtureFiles, fixtureFiles, VNFD, validPackage } from '../../support/csar-fixtures.ts';

test('TOSCA-Metadata layout: entry definitions, manifest and certificate come from TOSCA.meta', async () => {
  const fixture: FixtureFiles = { ...validPackage(), 'vnf.cert': 'x' };
  fixture['TOSCA-Metadata/TOSCA.meta'] = `${fixture['TOSCA-Metadata/TOSCA.meta']}`.replace(
    'Other-Definitions',
    'ETSI-Entry-Certificate: vnf.cert\nOther-Definitions',
  );
  const files = await fixtureFiles(fixture);
  const meta = parseToscaMeta(fixture['TOSCA-Metadata/TOSCA.meta'] as string, files).meta;
  const layout = decideLayout(files, meta);
  assert.deepEqual(layout.diagnostics.list, []);
  assert.equal(layout.layout, 'tosca-metadata');
  assert.equal(layout.entryDefinitions, 'Definitions/vnfd.yaml');
  assert.equal(layout.manifestFile, 'vnf.mf');
  assert.equal(layout.certificateFile, 'vnf.cert');
});

test('TOSCA-Metadata layout with a bad manifest name has no manifest file', async () => {
  const files = await fixtureFiles({ 'TOSCA-Metadata/TOSCA.meta': '', 'a.yaml': VNFD, 'manifest.mf1': '' });
  const layout = decideLayout(files, {
    keys: { 'Entry-Definitions': 'a.yaml', 'ETSI-Entry-Manifest': 'manifest.mf1' },
    fileBlocks: [],
  });
  assert.equal(layout.entryDefinitions, 'a.yaml');
  assert.equal(layout.manifestFile, undefined);
});

test('root YAML layout: the single root yaml, its same-name manifest and certificate', async () => {
  const files = await fixtureFiles({ ...validPackage({ layout: 'root-yaml' }), 'vnf.cert': 'x' });
  const layout = decideLayout(files);
  assert.deepEqual(layout.diagnostics.list, []);
  assert.equal(layout.layout, 'root-yaml');
  assert.equal(layout.entryDefinitions, 'vnf.yaml');
  assert.equal(layout.manifestFile, 'vnf.mf');
  assert.equal(layout.certificateFile, 'vnf.cert');
});

test('root YAML layout with two root yamls is an error listing them', async () => {
  const layout = decideLayout(await fixtureFiles({ 'a.yaml': VNFD, 'b.yml': VNFD }));
  assert.equal(layout.entryDefinitions, undefined);
  assert.equal(layout.diagnostics.errors[0].code, 'CSAR_ROOT_YAML_COUNT');
  assert.match(layout.diagnostics.errors[0].message, /found 2: a\.yaml, b\.yml/);
});

test('root YAML layout: a manifest named differently is an error, no manifest a warning', async () => {
  const layout = decideLayout(await fixtureFiles({ 'vnf.yaml': VNFD, 'other.mf': '' }));
  assert.deepEqual(
    layout.diagnostics.list.map((d) => [d.code, d.severity]),
    [
      ['CSAR_MANIFEST_NAME_MISMATCH', 'error'],
      ['CSAR_NO_MANIFEST', 'warning'],
    ],
  );
  assert.match(layout.diagnostics.list[0].message, /other\.mf.*vnf\.mf/);
});

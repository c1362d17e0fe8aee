/** Imports: relative files, SOL001 URLs without network, cycles, escapes, missing files; versions. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SAMPLES_DIR } from '../../support/samples.ts';
import { errors, loadFixture, plain, template } from './fixtures.ts';

const SOL001 = join(SAMPLES_DIR, '../../etsi/sol001/v2.6.1');

describe('imports', () => {
  it('resolves SOL001 URLs to the bundled copy when the package has none', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': template(`
topology_template:
  node_templates:
    VDU1:
      type: tosca.nodes.nfv.Vdu.Compute
      properties:
        name: VDU1
        description: first VDU
        vdu_profile: { min_number_of_instances: 1, max_number_of_instances: 2 }
`),
    });
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual(r.entry.imports, [
      'bosun:sol001/v2.6.1/etsi_nfv_sol001_common_types.yaml',
      'bosun:sol001/v2.6.1/etsi_nfv_sol001_vnfd_types.yaml',
    ]);
    assert.ok(r.types.isA('tosca.nodes.nfv.Vdu.Compute', 'tosca.nodes.Root'));
    assert.ok(r.templates.some((t) => t.file === 'bosun:sol001/v2.6.1/etsi_nfv_sol001_vnfd_types.yaml'));
  });

  it('resolves SOL001 v2.7.1 URLs too', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
imports:
  - https://forge.etsi.org/rep/nfv/SOL001/raw/v2.7.1/etsi_nfv_sol001_vnfd_types.yaml
`),
    });
    assert.deepEqual(errors(r), []);
    assert.ok(r.templates.some((t) => t.file === 'bosun:sol001/v2.7.1/etsi_nfv_sol001_common_types.yaml'));
    assert.ok(r.types.get('tosca.nodes.nfv.VNF'));
  });

  it('prefers the copy shipped in the package, nearest to the importing file', async () => {
    const common = readFileSync(`${SOL001}/etsi_nfv_sol001_common_types.yaml`, 'utf8');
    const vnfd = readFileSync(`${SOL001}/etsi_nfv_sol001_vnfd_types.yaml`, 'utf8');
    const r = await loadFixture({
      'Definitions/main.yaml': template(''),
      'Definitions/etsi_nfv_sol001_common_types.yaml': common,
      'Other/etsi_nfv_sol001_vnfd_types.yaml': vnfd,
      'Other/etsi_nfv_sol001_common_types.yaml': common,
    });
    assert.deepEqual(errors(r), []);
    assert.deepEqual(r.entry.imports, [
      'Definitions/etsi_nfv_sol001_common_types.yaml',
      'Other/etsi_nfv_sol001_vnfd_types.yaml',
    ]);
  });

  it('refuses other URLs and unknown SOL001 versions', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
imports:
  - https://example.com/types.yaml
  - https://forge.etsi.org/rep/nfv/SOL001/raw/v9.9.9/etsi_nfv_sol001_common_types.yaml
  - { file: types.yaml, repository: somewhere }
`),
    });
    const urls = errors(r, 'TOSCA_IMPORT_URL').sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    assert.equal(urls.length, 3);
    assert.match(urls[0].message, /https:\/\/example\.com\/types\.yaml/);
    assert.match(urls[1].message, /v9\.9\.9/);
    assert.match(urls[2].message, /repositor/);
    assert.deepEqual([urls[0].file, urls[0].line, urls[0].column], ['Definitions/main.yaml', 4, 5]);
  });

  it('resolves relative imports from the importing file, in both notations', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
imports:
  - sub/a.yaml
  - { file: ../Common/b.yaml }
  - legacy: { file: c.yaml }
`),
      'Definitions/sub/a.yaml': plain('imports: [ ../c.yaml ]\n'),
      'Common/b.yaml': plain(''),
      'Definitions/c.yaml': plain('node_types: { c.Node: { derived_from: tosca.nodes.Root } }\n'),
    });
    assert.deepEqual(errors(r), []);
    assert.deepEqual(
      r.templates.map((t) => t.file),
      ['Definitions/main.yaml', 'Definitions/sub/a.yaml', 'Definitions/c.yaml', 'Common/b.yaml'],
    );
    assert.ok(r.types.get('c.Node'));
  });

  it('reports imports escaping the package and missing files', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
imports:
  - ../../etc/passwd
  - nothere.yaml
`),
    });
    const esc = errors(r, 'TOSCA_IMPORT_ESCAPES');
    assert.equal(esc.length, 1);
    assert.deepEqual([esc[0].line, esc[0].column], [4, 5]);
    const missing = errors(r, 'TOSCA_IMPORT_MISSING');
    assert.equal(missing.length, 1);
    assert.match(missing[0].message, /Definitions\/nothere\.yaml is not in the package/);
  });

  it('detects import cycles, loads each file once and terminates', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain('imports: [ a.yaml ]\n'),
      'Definitions/a.yaml': plain('imports: [ b.yaml ]\n'),
      'Definitions/b.yaml': plain('imports: [ a.yaml, main.yaml ]\n'),
    });
    const cycles = errors(r, 'TOSCA_IMPORT_CYCLE');
    assert.equal(cycles.length, 2);
    assert.ok(
      cycles.some((d) => d.message.includes('Definitions/a.yaml → Definitions/b.yaml → Definitions/a.yaml')),
    );
    assert.deepEqual(
      r.templates.map((t) => t.file),
      ['Definitions/main.yaml', 'Definitions/a.yaml', 'Definitions/b.yaml'],
    );
  });

  it('loads a file imported twice (diamond) once, without reporting a cycle', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain('imports: [ a.yaml, b.yaml ]\n'),
      'Definitions/a.yaml': plain('imports: [ c.yaml ]\n'),
      'Definitions/b.yaml': plain('imports: [ c.yaml ]\n'),
      'Definitions/c.yaml': plain('node_types: { c.Node: { derived_from: tosca.nodes.Root } }\n'),
    });
    assert.deepEqual(
      r.diagnostics.filter((d) => d.code !== 'TOSCA_UNKNOWN_KEY'),
      [],
    );
    assert.equal(r.templates.filter((t) => t.file === 'Definitions/c.yaml').length, 1);
  });

  it('checks tosca_definitions_version', async () => {
    for (const v of [
      'tosca_simple_yaml_1_0',
      'tosca_simple_yaml_1_1',
      'tosca_simple_yaml_1_2',
      'tosca_simple_yaml_1_3',
    ]) {
      const r = await loadFixture({ 'Definitions/main.yaml': `tosca_definitions_version: ${v}\n` });
      assert.deepEqual(errors(r), [], v);
      assert.equal(r.entry.toscaDefinitionsVersion, v);
    }
    const bad = await loadFixture({ 'Definitions/main.yaml': 'tosca_definitions_version: tosca_2_0\n' });
    const d = errors(bad, 'TOSCA_VERSION')[0];
    assert.deepEqual([d.line, d.column], [1, 28]);
    const none = await loadFixture({ 'Definitions/main.yaml': 'description: x\n' });
    assert.equal(errors(none, 'TOSCA_VERSION').length, 1);
  });

  it('reports a missing entry file without throwing', async () => {
    const r = await loadFixture({ 'Definitions/other.yaml': plain('') });
    assert.equal(errors(r, 'TOSCA_ENTRY_UNREADABLE').length, 1);
    assert.equal(r.entry.file, 'Definitions/main.yaml');
    assert.deepEqual(r.templates, []);
  });
});

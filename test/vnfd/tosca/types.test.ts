/** The type registry: inheritance, unknown types, derivation cycles, short names. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errors, loadFixture, plain, template, warnings } from './fixtures.ts';

describe('types', () => {
  it('merges properties and definitions along derived_from, derived ones winning', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': template(`
node_types:
  acme.VNF:
    derived_from: tosca.nodes.nfv.VNF
    properties:
      provider: { type: string, default: Acme, constraints: [ valid_values: [ Acme ] ] }
    requirements:
      - virtual_link: { capability: tosca.capabilities.nfv.VirtualLinkable, occurrences: [ 0, 1 ] }
  acme.SmallVNF:
    derived_from: acme.VNF
`),
    });
    assert.deepEqual(errors(r), []);
    const t = r.types.get('acme.SmallVNF')!;
    assert.equal(t.kind, 'node');
    assert.equal(t.derivedFrom, 'acme.VNF');
    assert.deepEqual(r.types.chain('acme.SmallVNF'), [
      'acme.SmallVNF',
      'acme.VNF',
      'tosca.nodes.nfv.VNF',
      'tosca.nodes.Root',
    ]);
    assert.ok(r.types.isA('acme.SmallVNF', 'tosca.nodes.nfv.VNF'));
    assert.equal(r.types.isA('tosca.nodes.nfv.VNF', 'acme.VNF'), false);
    assert.equal(t.properties.provider.default, 'Acme');
    assert.equal(t.properties.provider.required, true);
    assert.equal(t.properties.descriptor_id.type, 'string');
    const reqs = t.definition.requirements as Record<string, unknown>[];
    const link = reqs.filter((e) => 'virtual_link' in e);
    assert.equal(link.length, 1);
    assert.deepEqual((link[0].virtual_link as { occurrences: unknown }).occurrences, [0, 1]);
    assert.ok(t.definition.interfaces && 'Vnflcm' in (t.definition.interfaces as object));
  });

  it('reports an unknown parent type by name, where it is written', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
data_types:
  my.Data:
    derived_from: tosca.datatypes.nfv.Missing
node_types:
  my.Node:
    derived_from: tosca.nodes.Root
    properties:
      scale: { type: tosca.datatypes.nfv.ScaleInfo }
`),
    });
    const unknown = errors(r, 'TOSCA_UNKNOWN_TYPE');
    assert.equal(unknown.length, 2);
    assert.match(unknown[0].message, /my\.Data derives from tosca\.datatypes\.nfv\.Missing/);
    assert.deepEqual([unknown[0].line, unknown[0].column], [5, 19]);
    assert.match(
      unknown[1].message,
      /property scale of node type my\.Node has type tosca\.datatypes\.nfv\.ScaleInfo/,
    );
  });

  it('reports derivation cycles without looping', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
node_types:
  a.Node: { derived_from: b.Node }
  b.Node: { derived_from: a.Node }
`),
    });
    const cycles = errors(r, 'TOSCA_DERIVATION_CYCLE');
    assert.ok(cycles.length >= 1);
    assert.match(cycles[0].message, /a\.Node → b\.Node → a\.Node|b\.Node → a\.Node → b\.Node/);
  });

  it('reports deriving from a type of another kind', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain('node_types:\n  a.Node: { derived_from: tosca.capabilities.Root }\n'),
    });
    assert.match(
      errors(r, 'TOSCA_TYPE_KIND')[0].message,
      /a\.Node derives from tosca\.capabilities\.Root, which is a capability type/,
    );
  });

  it('takes a data type declared under node_types as a data type, with a warning (as tosca-parser does)', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(
        'node_types:\n  a.Data: { derived_from: tosca.datatypes.Root, properties: { n: { type: integer } } }\n',
      ),
    });
    assert.deepEqual(errors(r), []);
    assert.match(
      warnings(r, 'TOSCA_DATA_TYPE_IN_NODE_TYPES')[0].message,
      /a\.Data derives from tosca\.datatypes\.Root, which is a data type: it is used as a data type/,
    );
    assert.equal(r.types.get('a.Data')?.kind, 'data');
  });

  it('reports node templates of unknown types, naming the type and the template', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
topology_template:
  node_templates:
    vdu:
      type: tosca.nodes.nfv.Vdu.Compute
`),
    });
    const d = errors(r, 'TOSCA_UNKNOWN_TYPE')[0];
    assert.match(d.message, /node template vdu has type tosca\.nodes\.nfv\.Vdu\.Compute/);
    assert.deepEqual([d.line, d.column], [6, 13]);
    // The template is still there (unchecked), so later layers can go on.
    assert.ok(r.entry.topology?.nodeTemplates.vdu);
  });

  it('accepts TOSCA short names for normative types', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
node_types:
  my.Server: { derived_from: Compute }
topology_template:
  node_templates:
    a: { type: tosca:Compute }
    b: { type: my.Server }
`),
    });
    assert.deepEqual(errors(r), []);
    assert.ok(r.types.isA('my.Server', 'tosca.nodes.Compute'));
    assert.equal(r.entry.topology?.nodeTemplates.a.type, 'tosca.nodes.Compute');
  });

  it('warns when a type is defined twice with different content', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
imports: [ other.yaml ]
node_types:
  a.Node: { derived_from: tosca.nodes.Root, description: one }
`),
      'Definitions/other.yaml': plain(`
node_types:
  a.Node: { derived_from: tosca.nodes.Root, description: two }
  b.Node: { derived_from: tosca.nodes.Compute }
`),
    });
    assert.deepEqual(r.diagnostics, []);
    const r2 = await loadFixture({
      'Definitions/main.yaml': plain(
        'imports: [ other.yaml ]\nnode_types:\n  a.Node: { derived_from: tosca.nodes.Root }\n',
      ),
      'Definitions/other.yaml': plain('node_types:\n  a.Node: { derived_from: tosca.nodes.Compute }\n'),
    });
    assert.equal(r2.diagnostics.filter((d) => d.code === 'TOSCA_DUPLICATE_TYPE').length, 1);
  });
});

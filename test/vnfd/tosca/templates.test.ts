/** Topologies: functions, requirements, capabilities, artifacts, interfaces, groups, policies, substitution. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ownValue } from '../../../src/own-properties.ts';
import { isShortNotationArtifact } from '../../../src/vnfd/tosca/templates.ts';
import { errors, loadFixture, plain, template, warnings } from './fixtures.ts';

const NODE_TYPES = `
node_types:
  my.Node:
    derived_from: tosca.nodes.Root
    properties:
      name: { type: string, required: false }
      size: { type: integer, required: false }
      tags: { type: list, required: false, entry_schema: { type: string } }
      info: { type: map, required: false, entry_schema: { type: string } }
    requirements:
      - peer: { capability: tosca.capabilities.Node, occurrences: [ 1, 2 ] }
      - optional: { capability: tosca.capabilities.Node, occurrences: [ 0, 1 ] }
    capabilities:
      host: { type: tosca.capabilities.Compute }
`;

describe('intrinsic functions', () => {
  it('evaluates get_input, get_property, concat, join and token; keeps get_attribute', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  inputs:
    prefix: { type: string, default: vnf }
    count: { type: integer, default: 3 }
    nodefault: { type: string }
  node_templates:
    a:
      type: my.Node
      properties:
        name: { concat: [ { get_input: prefix }, "-", { get_property: [ b, name ] } ] }
        size: { get_input: count }
        tags: [ { join: [ [ x, y, z ], "," ] }, { token: [ "a.b.c", ".", 1 ] }, { get_property: [ SELF, info, k ] } ]
        info: { k: v, other: { get_input: nodefault } }
      attributes:
        address: { get_attribute: [ b, tosca_id ] }
      requirements:
        - peer: b
      capabilities:
        host:
          properties:
            num_cpus: { get_input: count }
            name: { get_property: [ b, host, name ] }
    b:
      type: my.Node
      properties:
        name: second
      requirements:
        - peer: a
      capabilities:
        host:
          properties:
            name: hostb
`),
    });
    assert.deepEqual(errors(r), []);
    const a = r.entry.topology!.nodeTemplates.a;
    assert.equal(a.properties.name, 'vnf-second');
    assert.equal(a.properties.size, 3);
    assert.deepEqual(a.properties.tags, ['x,y,z', 'b', 'v']);
    // An input without a value stays a function call for the runtime.
    assert.deepEqual(a.properties.info, { k: 'v', other: { get_input: 'nodefault' } });
    assert.deepEqual(a.attributes.address, { get_attribute: ['b', 'tosca_id'] });
    assert.deepEqual(a.capabilities.host.properties, { num_cpus: 3, name: 'hostb' });
  });

  it('uses assigned input values before defaults', async () => {
    const r = await loadFixture(
      {
        'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  inputs:
    n: { type: string, default: dflt }
  node_templates:
    a: { type: my.Node, properties: { name: { get_input: n } }, requirements: [ peer: a ] }
`),
      },
      'Definitions/main.yaml',
      { inputs: { n: 'given' } },
    );
    assert.equal(r.entry.topology!.nodeTemplates.a.properties.name, 'given');
  });

  it('checks values produced by functions against the property type', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  inputs:
    word: { type: string, default: many }
  node_templates:
    a: { type: my.Node, properties: { size: { get_input: word } }, requirements: [ peer: a ] }
`),
    });
    assert.match(
      errors(r, 'TOSCA_WRONG_TYPE')[0].message,
      /property size of node template a: "many" is not an integer/,
    );
  });

  it('reports unknown inputs, nodes and properties in functions', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  node_templates:
    a:
      type: my.Node
      properties:
        name: { get_input: missing }
        tags: [ { get_property: [ nobody, name ] }, { get_property: [ SELF, nothing ] } ]
      requirements: [ peer: a ]
`),
    });
    assert.match(errors(r, 'TOSCA_UNKNOWN_INPUT')[0].message, /no input named missing/);
    const fn = errors(r, 'TOSCA_FUNCTION').map((d) => d.message);
    assert.ok(fn.some((m) => m.includes('no node template named nobody')));
    assert.ok(fn.some((m) => m.includes('node template a has no property nothing')));
  });

  it('reports get_property cycles without looping', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  node_templates:
    a: { type: my.Node, properties: { name: { get_property: [ b, name ] } }, requirements: [ peer: b ] }
    b: { type: my.Node, properties: { name: { get_property: [ a, name ] } }, requirements: [ peer: a ] }
`),
    });
    assert.ok(errors(r, 'TOSCA_FUNCTION').some((d) => d.message.includes('refers to itself')));
  });
});

describe('requirements and capabilities', () => {
  it('reads short and extended notation and checks occurrences', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  node_templates:
    a:
      type: my.Node
      requirements:
        - peer: b
        - peer: { node: c, capability: tosca.capabilities.Node, relationship: tosca.relationships.DependsOn }
        - peer: b
        - optional: { node: b, relationship: { type: tosca.relationships.ConnectsTo } }
        - unheard_of: b
        - optional: nowhere
    b: { type: my.Node, requirements: [ peer: a ] }
    c: { type: my.Node }
`),
    });
    const a = r.entry.topology!.nodeTemplates.a;
    assert.deepEqual(
      a.requirements.map(({ name, node, capability, relationship }) => ({
        name,
        node,
        capability,
        relationship,
      })),
      [
        { name: 'peer', node: 'b', capability: undefined, relationship: undefined },
        {
          name: 'peer',
          node: 'c',
          capability: 'tosca.capabilities.Node',
          relationship: 'tosca.relationships.DependsOn',
        },
        { name: 'peer', node: 'b', capability: undefined, relationship: undefined },
        {
          name: 'optional',
          node: 'b',
          capability: undefined,
          relationship: 'tosca.relationships.ConnectsTo',
        },
        { name: 'optional', node: 'nowhere', capability: undefined, relationship: undefined },
      ],
    );
    const occ = errors(r, 'TOSCA_OCCURRENCES');
    assert.equal(occ.length, 2);
    assert.ok(
      occ.some(
        (d) => d.message === 'node template a assigns requirement peer 3 times; its type allows at most 2',
      ),
    );
    assert.ok(
      occ.some(
        (d) =>
          d.message === 'node template a assigns requirement optional 2 times; its type allows at most 1',
      ),
    );
    assert.match(
      errors(r, 'TOSCA_UNKNOWN_REQUIREMENT')[0].message,
      /node template a has no requirement unheard_of/,
    );
    assert.match(errors(r, 'TOSCA_UNKNOWN_NODE')[0].message, /targets nowhere/);
    // c lacks its mandatory peer: a warning, as it may be fulfilled at deployment.
    assert.ok(
      warnings(r, 'TOSCA_OCCURRENCES').some((d) =>
        d.message.startsWith('node template c assigns requirement peer 0 time(s)'),
      ),
    );
  });

  it('checks capability names and their properties', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  node_templates:
    a:
      type: my.Node
      requirements: [ peer: a ]
      capabilities:
        host: { properties: { num_cpus: 0, mem_size: lots } }
        wings: { properties: {} }
`),
    });
    assert.match(errors(r, 'TOSCA_UNKNOWN_CAPABILITY')[0].message, /no capability wings/);
    assert.match(
      errors(r, 'TOSCA_CONSTRAINT')[0].message,
      /property num_cpus of capability host of node template a: value 0 violates greater_or_equal: 1/,
    );
    assert.match(
      errors(r, 'TOSCA_WRONG_TYPE')[0].message,
      /property mem_size of capability host of node template a: "lots" is not a scalar-unit.size/,
    );
  });
});

describe('artifacts and interfaces', () => {
  it('resolves artifact files relative to the template folder, in both notations', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': template(`
topology_template:
  node_templates:
    VNF:
      type: tosca.nodes.nfv.VNF
      properties:
        descriptor_id: d
        descriptor_version: '1'
        provider: p
        product_name: n
        software_version: '1'
        vnfm_info: [ x ]
        flavour_id: f
        flavour_description: fd
      interfaces:
        Vnflcm:
          instantiate: []
          instantiate_start:
            implementation: script
          instantiate_end: script
          heal_start:
            implementation: { primary: script, dependencies: [ config ] }
            inputs: { retries: 3 }
          not_an_operation: {}
          terminate_start:
            implementation: ../Scripts/missing.py
      artifacts:
        script:
          type: tosca.artifacts.Implementation.Python
          file: ../Scripts/run.py
        config: ../Scripts/config.yaml
        outside: ../../etc/passwd
        absent:
          type: tosca.artifacts.File
          file: nothere.txt
        driver:
          type: tosca.artifacts.Implementation.Python
          file: /opt/stack/tacker/tacker/vnfm/mgmt_drivers/vnflcm_noop.py
        rooted:
          type: tosca.artifacts.Implementation.Python
          file: /Scripts/run.py
        rootedMissing:
          type: tosca.artifacts.Implementation.Python
          file: /Scripts/gone.py
`),
      'Scripts/run.py': '# placeholder\n',
      'Scripts/config.yaml': 'a: 1\n',
    });
    const vnf = r.entry.topology!.nodeTemplates.VNF;
    assert.equal(vnf.artifacts.script.path, 'Scripts/run.py');
    assert.equal(vnf.artifacts.script.file, '../Scripts/run.py');
    assert.equal(vnf.artifacts.script.type, 'tosca.artifacts.Implementation.Python');
    assert.equal(vnf.artifacts.config.path, 'Scripts/config.yaml');
    assert.equal(isShortNotationArtifact(vnf.artifacts.config), true);
    assert.equal(isShortNotationArtifact(vnf.artifacts.script), false);
    assert.equal(errors(r, 'TOSCA_ARTIFACT_ESCAPES').length, 1);
    assert.match(
      errors(r, 'TOSCA_ARTIFACT_MISSING')[0].message,
      /artifact absent of node template VNF: nothere\.txt \(Definitions\/nothere\.txt\) is not in the package/,
    );
    // An absolute path: the package's own file when its first folder is the package's, else a
    // path on the VNFM host (tolerated: Tacker looks it up on its host).
    assert.equal(vnf.artifacts.rooted.path, 'Scripts/run.py');
    assert.equal(vnf.artifacts.rooted.hostPath, undefined);
    assert.ok(errors(r, 'TOSCA_ARTIFACT_MISSING').some((d) => d.message.includes('/Scripts/gone.py')));
    assert.equal(vnf.artifacts.driver.path, '/opt/stack/tacker/tacker/vnfm/mgmt_drivers/vnflcm_noop.py');
    assert.equal(vnf.artifacts.driver.hostPath, true);
    assert.deepEqual(
      warnings(r, 'TOSCA_ARTIFACT_HOST_PATH').map((d) => d.message.split(':')[0]),
      ['artifact driver of node template VNF'],
    );
    const ops = vnf.interfaces.Vnflcm;
    assert.equal(ops.instantiate.implementation, undefined);
    assert.equal(ops.instantiate_start.implementation, 'script');
    assert.equal(ops.instantiate_end.implementation, 'script');
    assert.equal(ops.heal_start.implementation, 'script');
    assert.deepEqual(ops.heal_start.dependencies, ['config']);
    assert.deepEqual(ops.heal_start.inputs, { retries: 3 });
    assert.ok(warnings(r, 'TOSCA_UNKNOWN_OPERATION').some((d) => d.message.includes('not_an_operation')));
    assert.ok(
      warnings(r, 'TOSCA_IMPLEMENTATION_MISSING').some((d) => d.message.includes('../Scripts/missing.py')),
    );
  });

  it('reports an interface the type does not have', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  node_templates:
    a: { type: my.Node, requirements: [ peer: a ], interfaces: { Custom: { go: x } } }
`),
    });
    assert.match(errors(r, 'TOSCA_UNKNOWN_INTERFACE')[0].message, /node template a has no interface Custom/);
  });
});

describe('groups, policies and substitution mappings', () => {
  const FLAVOUR = (policies: string, mappings: string, members = 'VDU1') =>
    template(`
node_types:
  acme.VNF:
    derived_from: tosca.nodes.nfv.VNF
    properties:
      flavour_id: { type: string, constraints: [ valid_values: [ simple, big ] ] }
topology_template:
  substitution_mappings:
    node_type: acme.VNF
${mappings}
  node_templates:
    VDU1:
      type: tosca.nodes.nfv.Vdu.Compute
      properties:
        name: VDU1
        description: vdu
        vdu_profile: { min_number_of_instances: 1, max_number_of_instances: 3 }
    CP1:
      type: tosca.nodes.nfv.VduCp
      properties: { layer_protocols: [ ipv4 ], order: 0 }
      requirements:
        - virtual_binding: VDU1
  groups:
    grp:
      type: tosca.groups.nfv.PlacementGroup
      properties: { description: g }
      members: [ ${members} ]
  policies:
${policies}
`);

  it('checks policy targets and properties, and group members', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': FLAVOUR(
        `    - init:
        type: tosca.policies.nfv.VduInitialDelta
        properties: { initial_delta: { number_of_instances: 1 } }
        targets: [ VDU1, nobody ]
    - rule:
        type: tosca.policies.nfv.AntiAffinityRule
        properties: { scope: nfvi_node }
        targets: [ grp ]
    - broken:
        type: tosca.policies.nfv.InstantiationLevels
        properties: { default_level: x }`,
        `    properties: { flavour_id: simple }`,
        'VDU1, ghost',
      ),
    });
    const t = r.entry.topology!;
    assert.deepEqual(
      t.groups.map((g) => [g.name, g.members]),
      [['grp', ['VDU1']]],
    );
    assert.match(errors(r, 'TOSCA_UNKNOWN_MEMBER')[0].message, /member ghost/);
    const targets = errors(r, 'TOSCA_UNKNOWN_TARGET');
    assert.equal(targets.length, 1);
    assert.match(targets[0].message, /policy init: target nobody is not a node template or group/);
    assert.deepEqual(t.policies.find((p) => p.name === 'init')?.targets, ['VDU1']);
    assert.deepEqual(t.policies.find((p) => p.name === 'rule')?.targets, ['grp']);
    assert.ok(
      errors(r, 'TOSCA_MISSING_PROPERTY').some(
        (d) => d.message === 'policy broken is missing the required property levels',
      ),
    );
  });

  it('warns of a policy target whose type the policy does not apply to, and keeps it', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': FLAVOUR(
        `    - init:
        type: tosca.policies.nfv.VduInitialDelta
        properties: { initial_delta: { number_of_instances: 1 } }
        targets: [ VDU1, CP1 ]`,
        `    properties: { flavour_id: simple }`,
      ),
    });
    assert.deepEqual(errors(r), []);
    assert.deepEqual(
      warnings(r, 'TOSCA_INVALID_TARGET').map((d) => [d.line, d.message]),
      [
        [
          36,
          'policy init: target CP1 (tosca.nodes.nfv.VduCp) is not one of the types tosca.policies.nfv.VduInitialDelta applies to (tosca.nodes.nfv.Vdu.Compute)',
        ],
      ],
    );
    assert.deepEqual(r.entry.topology!.policies[0].targets, ['VDU1', 'CP1']);
  });

  it('reads substitution mappings and checks them against the node type', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': FLAVOUR(
        '    []',
        `    properties: { flavour_id: simple }
    requirements:
      virtual_link_external: [ CP1, virtual_link ]
      virtual_link_internal: []`,
      ),
    });
    assert.deepEqual(errors(r), []);
    const sm = r.entry.topology!.substitutionMappings!;
    assert.equal(sm.nodeType, 'acme.VNF');
    assert.deepEqual(sm.properties, { flavour_id: 'simple' });
    assert.deepEqual(sm.requirements, { virtual_link_external: ['CP1', 'virtual_link'] });
    assert.deepEqual(sm.capabilities, {});
  });

  it('reports a bad substitution: unknown node type, property, value (a value outside constraints only warns, as tosca-parser never checks it)', async () => {
    const bad = await loadFixture({
      'Definitions/main.yaml': FLAVOUR('    []', '    properties: { flavour_id: huge, colour: red }'),
    });
    assert.match(
      warnings(bad, 'TOSCA_MAPPING_CONSTRAINT')[0].message,
      /substitution_mappings property flavour_id: value "huge" violates valid_values/,
    );
    assert.deepEqual(errors(bad, 'TOSCA_CONSTRAINT'), []);
    assert.match(errors(bad, 'TOSCA_UNKNOWN_PROPERTY')[0].message, /acme\.VNF has no property colour/);
    const unknown = await loadFixture({
      'Definitions/main.yaml': plain(`
topology_template:
  substitution_mappings:
    node_type: acme.Nothing
  node_templates: {}
`),
    });
    assert.match(errors(unknown, 'TOSCA_UNKNOWN_TYPE')[0].message, /node_type acme\.Nothing is not defined/);
  });

  it('builds the topology of imported (flavour) files too', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': template(
        `
topology_template:
  inputs:
    selected_flavour: { type: string }
  node_templates:
    VNF:
      type: acme.VNF
      properties:
        flavour_id: { get_input: selected_flavour }
        descriptor_id: d
        descriptor_version: '1'
        provider: p
        product_name: n
        software_version: '1'
        vnfm_info: [ 'etsivnfm:v2.6.1' ]
        flavour_description: chosen at instantiation
`,
        ['df_simple.yaml'],
      ),
      'Definitions/df_simple.yaml': FLAVOUR('    []', '    properties: { flavour_id: simple }'),
    });
    assert.deepEqual(errors(r), []);
    assert.deepEqual(r.entry.topology?.nodeTemplates.VNF.properties.flavour_id, {
      get_input: 'selected_flavour',
    });
    const flavour = r.templates.find((t) => t.file === 'Definitions/df_simple.yaml');
    assert.equal(flavour?.topology?.substitutionMappings?.properties.flavour_id, 'simple');
    assert.ok(flavour?.topology?.nodeTemplates.VDU1);
  });
});

describe('malformed topologies', () => {
  /** Each TOSCA_SYNTAX diagnostic as `line:column message`, in the order reported. */
  const syntax = (r: Awaited<ReturnType<typeof loadFixture>>) =>
    errors(r, 'TOSCA_SYNTAX').map((d) => `${d.line}:${d.column} ${d.message}`);

  it('reports each malformed piece where it is written, in document order, and builds the rest', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${NODE_TYPES}
topology_template:
  inputs: [ not, a, map ]
  node_templates:
    nomap: 5
    notype: { properties: {} }
    a:
      type: my.Node
      properties: [ x ]
      requirements: { peer: b }
      capabilities: [ host ]
      artifacts: [ x ]
      interfaces: [ Standard ]
    b:
      type: my.Node
      requirements:
        - peer: a
          optional: a
        - [ peer, a ]
        - peer: 5
        - peer: a
      artifacts:
        untyped: { file: b.sh }
        fileless: { type: tosca.artifacts.File }
      interfaces:
        Standard:
          create: 5
          configure: []
          start: { implementation: b.sh }
  groups:
    g: [ a ]
  policies:
    - p2: { type: x }
      p3: { type: y }
    - p4: [ nope ]
  substitution_mappings: [ x ]
`),
      'Definitions/b.sh': 'true\n',
    });
    assert.deepEqual(syntax(r), [
      '18:11 inputs must be a map',
      '20:5 node template nomap must be a map',
      '21:5 node template notype has no type',
      '24:19 properties of node template a must be a map',
      '25:21 requirements of node template a must be a list',
      '26:21 capabilities of node template a must be a map',
      '27:18 artifacts of node template a must be a map',
      '28:19 interfaces of node template a must be a map',
      '32:11 requirement 1 of node template b must be a map with one key',
      '34:11 requirement 2 of node template b must be a map with one key',
      '35:17 requirement peer of node template b must name a node or be a map',
      '38:9 artifact untyped of node template b has no type',
      '39:9 artifact fileless of node template b needs a file',
      '42:11 operation create of interface Standard of node template b must be a map or an implementation',
      '46:5 group g must be a map with a type',
      '48:7 policy 1 must be a map with one key',
      '50:7 policy p4 must be a map with a type',
      '51:26 substitution_mappings must be a map with a node_type',
    ]);
    const t = r.entry.topology!;
    assert.deepEqual(Object.keys(t.inputs), []);
    assert.deepEqual(Object.keys(t.nodeTemplates), ['a', 'b']);
    assert.deepEqual(t.nodeTemplates.a.properties, {});
    assert.deepEqual(t.nodeTemplates.a.requirements, []);
    assert.deepEqual(
      t.nodeTemplates.b.requirements.map((q) => [q.name, q.node]),
      [['peer', 'a']],
    );
    assert.equal(t.nodeTemplates.b.artifacts.untyped.type, 'tosca.artifacts.File');
    assert.deepEqual(Object.keys(t.nodeTemplates.b.artifacts), ['untyped']);
    assert.deepEqual(
      Object.entries(t.nodeTemplates.b.interfaces.Standard).map(([op, o]) => [op, o.implementation]),
      [
        ['configure', undefined],
        ['start', 'b.sh'],
      ],
    );
    assert.deepEqual(t.groups, []);
    assert.deepEqual(t.policies, []);
    assert.equal(t.substitutionMappings, undefined);
  });

  it('reports sections of the wrong shape and unusable substitution mappings', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
topology_template:
  node_templates: [ a ]
  groups: 5
  policies: 5
  substitution_mappings:
    node_type: tosca.nodes.Root
    requirements: [ x ]
    capabilities:
      feature: [ a ]
      other: [ a, b, c ]
      declared: []
`),
    });
    assert.deepEqual(syntax(r), [
      '4:19 node_templates must be a map',
      '5:11 groups must be a map',
      '6:13 policies must be a list',
      '9:19 substitution_mappings requirements must be a map',
      '11:16 substitution_mappings capabilities feature must be [node_template, capability]',
      '12:14 substitution_mappings capabilities other must be [node_template, capability]',
    ]);
    const sm = r.entry.topology!.substitutionMappings!;
    assert.deepEqual([sm.nodeType, sm.requirements, sm.capabilities], ['tosca.nodes.Root', {}, {}]);
  });
});

describe('names Object.prototype has (__proto__, constructor, toString…)', () => {
  it('are names like any other: kept, and checked against the type', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
node_types:
  my.Named:
    derived_from: tosca.nodes.Root
    properties:
      constructor: { type: string, required: true }
      toString: { type: integer, required: true }
      __proto__: { type: string, default: kept }
topology_template:
  inputs:
    __proto__: { type: string, default: x }
  node_templates:
    __proto__:
      type: my.Named
      properties: { constructor: c, toString: 1 }
      artifacts: { __proto__: a.sh }
      interfaces: { Standard: { __proto__: a.sh }, constructor: { create: a.sh } }
      capabilities: { __proto__: {}, toString: {} }
    plain:
      type: my.Named
      properties: { constructor: 5, hasOwnProperty: 1 }
  substitution_mappings:
    node_type: my.Named
    properties: { constructor: c, valueOf: x }
    capabilities: { __proto__: [ __proto__, feature ] }
`),
      'Definitions/a.sh': 'true\n',
    });
    const t = r.entry.topology!;
    assert.deepEqual(Object.keys(t.inputs), ['__proto__']);
    assert.deepEqual(Object.keys(t.nodeTemplates), ['__proto__', 'plain']);
    const proto = ownValue(t.nodeTemplates, '__proto__')!;
    assert.equal(Object.getPrototypeOf(t.nodeTemplates), Object.prototype);
    // A computed key: `__proto__:` in a literal would set the prototype.
    assert.deepEqual(proto.properties, { constructor: 'c', toString: 1, ['__proto__']: 'kept' });
    assert.deepEqual(Object.keys(proto.artifacts), ['__proto__']);
    assert.deepEqual(Object.keys(proto.interfaces), ['Standard']);
    assert.deepEqual(Object.keys(proto.capabilities), []);
    assert.deepEqual(Object.keys(t.substitutionMappings!.capabilities), ['__proto__']);
    assert.deepEqual(
      r.diagnostics
        .filter((d) => d.file === 'Definitions/main.yaml')
        .map((d) => `${d.code} ${d.message.replace(/ \(.*\)$/, '')}`),
      [
        'TOSCA_UNKNOWN_CAPABILITY node template __proto__ has no capability __proto__',
        'TOSCA_UNKNOWN_CAPABILITY node template __proto__ has no capability toString',
        'TOSCA_UNKNOWN_OPERATION interface Standard of node template __proto__ has no operation __proto__ in its type',
        'TOSCA_UNKNOWN_INTERFACE node template __proto__ has no interface constructor',
        'TOSCA_WRONG_TYPE property constructor of node template plain: 5 is not a string',
        'TOSCA_UNKNOWN_PROPERTY node template plain has no property hasOwnProperty',
        'TOSCA_MISSING_PROPERTY node template plain is missing the required property toString',
        'TOSCA_UNKNOWN_PROPERTY substitution_mappings: node type my.Named has no property valueOf',
        'TOSCA_UNKNOWN_MAPPING substitution_mappings: node type my.Named has no capability __proto__',
      ],
    );
  });
});

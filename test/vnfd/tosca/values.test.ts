/** Property values: types, scalar units, constraints, defaults, required properties, data types. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkConstraints } from '../../../src/vnfd/tosca/constraints.ts';
import { parseScalarUnit, toBytes } from '../../../src/vnfd/tosca/scalar-units.ts';
import { errors, loadFixture, plain } from './fixtures.ts';

describe('scalar units', () => {
  it('converts sizes to bytes (decimal and binary prefixes)', () => {
    assert.equal(toBytes('1 GiB'), 2 ** 30);
    assert.equal(toBytes('512 MB'), 512_000_000);
    assert.equal(toBytes('1.75 GiB'), 1_879_048_192);
    assert.equal(toBytes('8192.5 MiB'), 8_590_458_880);
    assert.equal(toBytes('3 GB'), 3_000_000_000);
    assert.equal(toBytes('1 kB'), 1000);
    assert.equal(toBytes('1 KiB'), 1024);
    assert.equal(toBytes('10B'), 10);
    assert.equal(toBytes('1 lightyear'), undefined);
    assert.equal(toBytes('GB'), undefined);
  });

  it('converts times, frequencies and bitrates to their base unit', () => {
    assert.equal(parseScalarUnit('10 ms', 'time')?.base, 0.01);
    assert.equal(parseScalarUnit('2 h', 'time')?.base, 7200);
    assert.equal(parseScalarUnit('2.4 GHz', 'frequency')?.base, 2.4e9);
    assert.equal(parseScalarUnit('1 Gbps', 'bitrate')?.base, 1e9);
    assert.equal(parseScalarUnit('1 MBps', 'bitrate')?.base, 8e6);
    assert.equal(parseScalarUnit('1 GB', 'time'), undefined);
  });

  it("refuses a unit that is a name of Object.prototype (no NaN size from '1 constructor')", () => {
    assert.equal(toBytes('1 constructor'), undefined);
    assert.equal(parseScalarUnit('1 toString', 'bitrate'), undefined);
    assert.equal(parseScalarUnit('1 valueOf', 'time'), undefined);
  });
});

describe('constraints', () => {
  const cases: [string, unknown, unknown, boolean][] = [
    ['equal', 'a', 'a', true],
    ['equal', 'b', 'a', false],
    ['greater_than', 5, 4, true],
    ['greater_than', 4, 4, false],
    ['greater_or_equal', 4, 4, true],
    ['greater_or_equal', 3, 4, false],
    ['less_than', 3, 4, true],
    ['less_than', 4, 4, false],
    ['less_or_equal', 4, 4, true],
    ['less_or_equal', 5, 4, false],
    ['in_range', 5, [1, 10], true],
    ['in_range', 11, [1, 10], false],
    ['in_range', 1000, [1, 'UNBOUNDED'], true],
    ['valid_values', 'x', ['x', 'y'], true],
    ['valid_values', 'z', ['x', 'y'], false],
    ['length', 'abc', 3, true],
    ['length', 'abcd', 3, false],
    ['min_length', [1, 2], 2, true],
    ['min_length', [1], 2, false],
    ['max_length', { a: 1 }, 1, true],
    ['max_length', 'abc', 2, false],
    ['pattern', 'abc-1', '[a-z]+-[0-9]', true],
    ['pattern', 'xabc-1', 'abc-[0-9]', false],
  ];
  for (const [kind, value, arg, ok] of cases) {
    it(`${kind} ${JSON.stringify(arg)} ${ok ? 'accepts' : 'rejects'} ${JSON.stringify(value)}`, () => {
      const problems = checkConstraints(value, [{ [kind]: arg }]);
      assert.equal(problems.length === 0, ok, JSON.stringify(problems));
      if (!ok) assert.equal(problems[0].malformed, false);
    });
  }

  it('compares scalar units in their base unit', () => {
    assert.deepEqual(checkConstraints('1024 MB', [{ greater_or_equal: '1 GB' }], 'size'), []);
    assert.equal(checkConstraints('999 MB', [{ greater_or_equal: '1 GB' }], 'size').length, 1);
    assert.deepEqual(checkConstraints('1 GiB', [{ in_range: ['1 GB', '2 GB'] }], 'size'), []);
  });

  it('flags malformed constraints as such', () => {
    const [p] = checkConstraints(1, [{ in_range: 3 }]);
    assert.equal(p.malformed, true);
    assert.equal(checkConstraints('a', [{ frobnicate: 1 }])[0].malformed, true);
  });
});

const TYPES = `
data_types:
  my.Inner:
    derived_from: tosca.datatypes.Root
    properties:
      size: { type: scalar-unit.size }
      count: { type: integer, required: false, default: 1 }
node_types:
  my.Node:
    derived_from: tosca.nodes.Root
    properties:
      s: { type: string, required: false }
      i: { type: integer, required: false }
      f: { type: float, required: false }
      b: { type: boolean, required: false }
      l: { type: list, required: false, entry_schema: { type: integer } }
      m: { type: map, required: false, entry_schema: { type: my.Inner } }
      inner: { type: my.Inner, required: false }
      t: { type: scalar-unit.time, required: false }
      v: { type: version, required: false }
      ts: { type: timestamp, required: false }
      r: { type: range, required: false }
      needed: { type: string }
      defaulted: { type: string, default: hello }
      c_equal: { type: string, required: false, constraints: [ equal: fixed ] }
      c_gt: { type: integer, required: false, constraints: [ greater_than: 10 ] }
      c_ge: { type: integer, required: false, constraints: [ greater_or_equal: 10 ] }
      c_lt: { type: integer, required: false, constraints: [ less_than: 10 ] }
      c_le: { type: integer, required: false, constraints: [ less_or_equal: 10 ] }
      c_range: { type: integer, required: false, constraints: [ in_range: [ 1, 5 ] ] }
      c_valid: { type: string, required: false, constraints: [ valid_values: [ red, green ] ] }
      c_len: { type: string, required: false, constraints: [ length: 4 ] }
      c_min: { type: string, required: false, constraints: [ min_length: 3 ] }
      c_max: { type: list, required: false, entry_schema: { type: string }, constraints: [ max_length: 1 ] }
      c_pattern: { type: string, required: false, constraints: [ pattern: "[a-z]+" ] }
      c_size: { type: scalar-unit.size, required: false, constraints: [ greater_or_equal: 1 GB ] }
      c_entry: { type: list, required: false, entry_schema: { type: string, constraints: [ valid_values: [ a ] ] } }
`;

/** 1-based line of the first line starting with `prefix`. */
function lineOf(text: string, prefix: string): number {
  return text.split('\n').findIndex((l) => l.startsWith(prefix)) + 1;
}

function nodeWith(props: string): string {
  return plain(`${TYPES}
topology_template:
  node_templates:
    n:
      type: my.Node
      properties:
        needed: yes-it-is
${props
  .trim()
  .split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
`);
}

describe('property values', () => {
  it('accepts well-typed values and applies defaults (also inside data types)', async () => {
    const main = nodeWith(`
s: text
i: 3
f: 1.5
b: true
l: [1, 2]
m: { x: { size: 1 GB } }
inner: { size: 512 MiB }
t: 10 s
v: 1.2.3
ts: 2024-01-01T00:00:00Z
r: [ 1, UNBOUNDED ]
c_size: 1024 MB`);
    const r = await loadFixture({ 'Definitions/main.yaml': main });
    assert.deepEqual(errors(r), []);
    const n = r.entry.topology!.nodeTemplates.n;
    assert.equal(n.properties.defaulted, 'hello');
    assert.deepEqual(n.properties.inner, { size: '512 MiB', count: 1 });
    assert.deepEqual(n.properties.m, { x: { size: '1 GB', count: 1 } });
    assert.equal(n.propertyLocs.s.line, lineOf(main, '        s: text'));
    assert.equal(n.propertyLocs.defaulted, undefined);
  });

  it('reports wrong types with the property, the value and where it is', async () => {
    const main = nodeWith(`
s: 12
i: many
f: fast
b: perhaps
l: [1, two]
m: [1]
inner: { size: huge }
t: 10 GB
v: latest
r: 5`);
    const r = await loadFixture({ 'Definitions/main.yaml': main });
    const wrong = errors(r, 'TOSCA_WRONG_TYPE');
    const text = wrong.map((d) => d.message).join('\n');
    for (const needle of [
      'property s of node template n: 12 is not a string',
      'property i of node template n: "many" is not an integer',
      'property f of node template n: "fast" is not a number',
      'property b of node template n: "perhaps" is not a boolean',
      'property l of node template n[1]: "two" is not an integer',
      'property m of node template n: [1] is not a map',
      '"huge" is not a scalar-unit.size',
      'property t of node template n: "10 GB" is not a scalar-unit.time',
      'property v of node template n: "latest" is not a version',
      'property r of node template n: 5 is not a range',
    ]) {
      assert.ok(text.includes(needle), `missing: ${needle}\n${text}`);
    }
    const s = wrong.find((d) => d.message.startsWith('property s '))!;
    assert.deepEqual(
      [s.file, s.line, s.column],
      ['Definitions/main.yaml', lineOf(main, '        s: 12'), 12],
    );
  });

  it('reports each violated constraint naming the property, the value and the constraint', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': nodeWith(`
c_equal: other
c_gt: 10
c_ge: 9
c_lt: 10
c_le: 11
c_range: 6
c_valid: blue
c_len: abc
c_min: ab
c_max: [a, b]
c_pattern: ABC
c_size: 999 MB
c_entry: [a, b]`),
    });
    const msgs = errors(r, 'TOSCA_CONSTRAINT').map((d) => d.message);
    const expected = [
      'property c_equal of node template n: value "other" violates equal: "fixed"',
      'property c_gt of node template n: value 10 violates greater_than: 10',
      'property c_ge of node template n: value 9 violates greater_or_equal: 10',
      'property c_lt of node template n: value 10 violates less_than: 10',
      'property c_le of node template n: value 11 violates less_or_equal: 10',
      'property c_range of node template n: value 6 violates in_range: [1,5]',
      'property c_valid of node template n: value "blue" violates valid_values: ["red","green"]',
      'property c_len of node template n: value "abc" violates length: 4',
      'property c_min of node template n: value "ab" violates min_length: 3',
      'property c_max of node template n: value ["a","b"] violates max_length: 1',
      'property c_pattern of node template n: value "ABC" violates pattern: "[a-z]+"',
      'property c_size of node template n: value "999 MB" violates greater_or_equal: "1 GB"',
      'property c_entry of node template n[1]: value "b" violates valid_values: ["a"]',
    ];
    assert.deepEqual(msgs.sort(), expected.sort());
    assert.ok(
      errors(r, 'TOSCA_CONSTRAINT').every((d) => d.file === 'Definitions/main.yaml' && d.line && d.column),
    );
  });

  it('reports missing required properties, also inside data types, and unknown ones', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`${TYPES}
topology_template:
  node_templates:
    n:
      type: my.Node
      properties:
        inner: { count: 2, colour: red }
        bogus: 1
`),
    });
    const missing = errors(r, 'TOSCA_MISSING_PROPERTY').map((d) => d.message);
    assert.deepEqual(missing.sort(), [
      'node template n is missing the required property needed',
      'property inner of node template n (data type my.Inner) is missing the required property size',
    ]);
    const unknown = errors(r, 'TOSCA_UNKNOWN_PROPERTY').map((d) => d.message);
    assert.equal(unknown.length, 2);
    assert.ok(unknown.some((m) => m.includes('has no property colour')));
    assert.ok(unknown.some((m) => m.startsWith('node template n has no property bogus')));
  });

  it('applies derived defaults over the parent type and checks the constraints on them', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml': plain(`
node_types:
  base.Node:
    derived_from: tosca.nodes.Root
    properties:
      provider: { type: string }
  my.Node:
    derived_from: base.Node
    properties:
      provider:
        type: string
        constraints: [ valid_values: [ Acme ] ]
        default: Acme
topology_template:
  node_templates:
    good: { type: my.Node }
    bad: { type: my.Node, properties: { provider: Other } }
`),
    });
    assert.equal(r.entry.topology!.nodeTemplates.good.properties.provider, 'Acme');
    assert.deepEqual(
      errors(r).map((d) => [d.code, d.message]),
      [
        [
          'TOSCA_CONSTRAINT',
          'property provider of node template bad: value "Other" violates valid_values: ["Acme"]',
        ],
      ],
    );
  });
});

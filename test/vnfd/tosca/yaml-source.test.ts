/** YAML reading with positions and guards against hostile documents. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  indentFlowContinuations,
  keyLoc,
  locOf,
  parseYaml,
  valueLoc,
} from '../../../src/vnfd/tosca/yaml-source.ts';
import { errors, loadFixture } from './fixtures.ts';

describe('parseYaml', () => {
  it('keeps 1-based line:column of maps, keys and values', () => {
    const r = parseYaml('a:\n  b: [1, 2]\n  c: x\n', 'f.yaml');
    assert.deepEqual(r.diagnostics, []);
    const v = r.value as { a: { b: number[]; c: string } };
    assert.deepEqual(v, { a: { b: [1, 2], c: 'x' } });
    assert.deepEqual(keyLoc(v.a, 'c'), { file: 'f.yaml', line: 3, column: 3 });
    assert.deepEqual(valueLoc(v.a, 'c'), { file: 'f.yaml', line: 3, column: 6 });
    assert.deepEqual(valueLoc(v.a.b, 1), { file: 'f.yaml', line: 2, column: 10 });
    assert.deepEqual(locOf(v.a), { file: 'f.yaml', line: 2, column: 3 });
  });

  it('reports a syntax error with its line and column', () => {
    const r = parseYaml('a: 1\nb: [1, 2\nc: 3\n', 'bad.yaml');
    assert.equal(r.value, undefined);
    const d = r.diagnostics.find((x) => x.code === 'YAML_SYNTAX');
    assert.ok(d, JSON.stringify(r.diagnostics));
    assert.equal(d.file, 'bad.yaml');
    assert.equal(typeof d.line, 'number');
    assert.equal(typeof d.column, 'number');
  });

  it('reports the exact position of a nested compact mapping', () => {
    const r = parseYaml('tosca: 1\nnode_types:\n  a: b: c\n', 'q.yaml');
    const d = r.diagnostics.find((x) => x.code === 'YAML_SYNTAX');
    assert.ok(d);
    assert.equal(d.line, 3);
    assert.equal(d.column, 6);
    assert.match(d.message, /q\.yaml is not valid YAML/);
  });

  it('reports duplicate keys', () => {
    const r = parseYaml('a: 1\na: 2\n', 'dup.yaml');
    assert.equal(r.diagnostics[0].code, 'YAML_DUPLICATE_KEY');
    assert.equal(r.diagnostics[0].line, 2);
  });

  it('stops an alias bomb (billion laughs)', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    let prev = 'a';
    for (const n of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) {
      lines.push(
        `${n}: &${n} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
      );
      prev = n;
    }
    const r = parseYaml(lines.join('\n'), 'bomb.yaml');
    assert.equal(r.value, undefined);
    const d = r.diagnostics.find((x) => x.code === 'YAML_ALIAS_LIMIT');
    assert.ok(d, JSON.stringify(r.diagnostics));
    assert.equal(d.file, 'bomb.yaml');
    assert.ok(d.line && d.line >= 2);
  });

  it('accepts a moderate number of aliases', () => {
    const r = parseYaml('base: &b {x: 1}\nuse1: *b\nuse2: *b\n', 'ok.yaml');
    assert.deepEqual(r.diagnostics, []);
    assert.deepEqual((r.value as Record<string, unknown>).use2, { x: 1 });
  });

  it('refuses documents nested deeper than the limit', () => {
    const deep = `${'['.repeat(100)}${']'.repeat(100)}`;
    const r = parseYaml(`a: ${deep}\n`, 'deep.yaml');
    assert.equal(r.value, undefined);
    const d = r.diagnostics.find((x) => x.code === 'YAML_TOO_DEEP');
    assert.ok(d, JSON.stringify(r.diagnostics));
    assert.equal(d.line, 1);
  });

  it('refuses block nesting deeper than a custom limit', () => {
    let text = '';
    for (let i = 0; i < 12; i++) text += `${'  '.repeat(i)}k${i}:\n`;
    text += `${'  '.repeat(12)}v: 1\n`;
    assert.equal(parseYaml(text, 'd.yaml', { maxDepth: 10 }).diagnostics[0]?.code, 'YAML_TOO_DEEP');
    assert.deepEqual(parseYaml(text, 'd.yaml', { maxDepth: 20 }).diagnostics, []);
  });

  it('survives absurd nesting without a crash', () => {
    const r = parseYaml(`${'['.repeat(200_000)}${']'.repeat(200_000)}`, 'huge.yaml');
    assert.equal(r.value, undefined);
    assert.ok(r.diagnostics.some((d) => d.code === 'YAML_TOO_DEEP' || d.code === 'YAML_SYNTAX'));
  });

  it('accepts flow collections continued at column 0, as PyYAML does, with a warning', () => {
    const text = 'a:\n  b:\n    - valid_values: [ x, y,\nz ]\n  c: 1\n';
    assert.equal(indentFlowContinuations(text).split('\n')[3], '                     z ]');
    const r = parseYaml(text, 'flow.yaml');
    assert.deepEqual(r.value, { a: { b: [{ valid_values: ['x', 'y', 'z'] }], c: 1 } });
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.severity]),
      [['YAML_FLOW_INDENT', 'warning']],
    );
  });

  it('does not treat __proto__ keys specially', () => {
    const r = parseYaml('__proto__: {polluted: true}\n', 'p.yaml');
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(r.value as object), ['__proto__']);
  });
});

describe('YAML guards through loadTosca', () => {
  it('reports a syntax error in an imported file at its position and goes on', async () => {
    const r = await loadFixture({
      'Definitions/main.yaml':
        'tosca_definitions_version: tosca_simple_yaml_1_3\nimports:\n  - broken.yaml\n',
      'Definitions/broken.yaml': 'tosca_definitions_version: tosca_simple_yaml_1_3\nnode_types: {a: 1\n',
    });
    const d = errors(r, 'YAML_SYNTAX')[0];
    assert.equal(d.file, 'Definitions/broken.yaml');
    assert.ok(d.line && d.column);
    assert.equal(r.entry.file, 'Definitions/main.yaml');
  });

  it('reports an alias bomb in the entry file', async () => {
    const lines = [
      'tosca_definitions_version: tosca_simple_yaml_1_3',
      'metadata:',
      '  a: &a [x,x,x,x,x,x,x,x,x,x]',
    ];
    let prev = 'a';
    for (const n of ['b', 'c', 'd', 'e', 'f', 'g']) {
      lines.push(
        `  ${n}: &${n} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
      );
      prev = n;
    }
    const r = await loadFixture({ 'Definitions/main.yaml': lines.join('\n') });
    assert.equal(errors(r, 'YAML_ALIAS_LIMIT').length, 1);
  });
});

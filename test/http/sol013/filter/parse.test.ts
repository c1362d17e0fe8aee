import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseFilter } from '../../../../src/http/sol013/filter/index.ts';
import { assertBadRequest } from './assert-problem.ts';

describe('parseFilter', () => {
  test('parses every single-value operator', () => {
    for (const op of ['eq', 'neq', 'gt', 'gte', 'lt', 'lte']) {
      assert.deepEqual(parseFilter(`(${op},a/b,1)`), [
        { op, path: ['a', 'b'], values: ['1'], source: `(${op},a/b,1)`, position: 1 },
      ]);
    }
  });

  test('parses every multi-value operator with one or more values', () => {
    for (const op of ['in', 'nin', 'cont', 'ncont']) {
      assert.deepEqual(parseFilter(`(${op},a,x)`)[0].values, ['x']);
      assert.deepEqual(parseFilter(`(${op},a,x,y,z)`)[0].values, ['x', 'y', 'z']);
    }
  });

  test('quoted values: doubled quotes, commas and parentheses inside', () => {
    assert.deepEqual(parseFilter("(eq,a,'it''s')")[0].values, ["it's"]);
    assert.deepEqual(parseFilter("(in,a,'x,y','(z)',w,'a;b')")[0].values, ['x,y', '(z)', 'w', 'a;b']);
    assert.deepEqual(parseFilter("(eq,a,'')")[0].values, ['']);
    assert.deepEqual(parseFilter("(eq,a,'''')")[0].values, ["'"]);
    assert.deepEqual(parseFilter("(eq,a,'''x''')")[0].values, ["'x'"]);
  });

  test('unquoted values keep spaces, "(" and ";"', () => {
    assert.deepEqual(parseFilter('(eq,a,b c(d;e)')[0].values, ['b c(d;e']);
  });

  test('tilde escapes in attribute names', () => {
    assert.deepEqual(parseFilter('(eq,a~1b/c~ad~be~0f,1)')[0].path, ['a/b', 'c,d@e~f']);
    assert.deepEqual(parseFilter('(eq,~0~1,1)')[0].path, ['~/']);
  });

  test('several terms keep their own source and position', () => {
    assert.deepEqual(parseFilter("(eq,a,1);(in,b/c,'x,y',z)"), [
      { op: 'eq', path: ['a'], values: ['1'], source: '(eq,a,1)', position: 1 },
      { op: 'in', path: ['b', 'c'], values: ['x,y', 'z'], source: "(in,b/c,'x,y',z)", position: 10 },
    ]);
  });

  const malformed: [string, string, ...string[]][] = [
    ['', 'empty'],
    ['(eq,a,1);', "trailing ';'", 'position 9'],
    [';(eq,a,1)', 'empty term', 'position 1'],
    ['(eq,a,1);;(eq,b,2)', 'empty term', 'position 10'],
    ['eq,a,1', "expected '('", 'position 1', 'term "eq,a,1"'],
    ['(eq,a,1', "missing ')'", 'position 8'],
    ['(eq,a,1)x', 'unexpected text after', 'position 9'],
    ['(eq,a,1)(eq,b,2)', 'unexpected text after', 'position 9'],
    ['(eqq,id,1)', "unknown operator 'eqq'", 'position 2', 'term "(eqq,id,1)"', 'eq, neq, gt'],
    ['(eq,a,1);(EQ,id,1)', "unknown operator 'EQ'", 'position 11', 'term "(EQ,id,1)"'],
    ['()', 'missing operator', 'position 2'],
    ['(eq)', 'missing attribute', 'position 4'],
    ['(eq', 'missing attribute', 'position 4'],
    ['(eq,,1)', 'missing attribute name', 'position 5'],
    ['(eq,a)', 'missing value', 'position 6'],
    ['(eq,abc', 'missing value', 'position 8'],
    ['(eq,a,)', 'missing value', 'position 7'],
    ['(in,a,1,)', 'missing value', 'position 9'],
    ['(in,a,,1)', 'missing value', 'position 7'],
    ['(eq,a,1,2)', "operator 'eq' takes exactly one value, got 2", 'position 2'],
    ['(lte,a,1,2,3)', "operator 'lte' takes exactly one value, got 3"],
    ["(eq,a,'abc)", 'unterminated quoted value', 'position 7'],
    ["(eq,a,'x'y)", 'after a quoted value', 'position 10'],
    ["(eq,a,x'y)", 'quote the whole value', 'position 8'],
    ['(eq,a~x,1)', "invalid escape '~x'", 'position 6'],
    ['(eq,a~,1)', "invalid escape '~'", 'position 6'],
    ['(eq,a//b,1)', 'empty attribute name segment', 'position 7'],
    ['(eq,/a,1)', 'empty attribute name segment', 'position 5'],
    ['(eq,a/,1)', 'empty attribute name segment', 'position 7'],
    ['(eq,@key,1)', 'escaped as ~b', 'position 5'],
    ['(eq,a(b,1)', "character '(' is not allowed in an attribute name", 'position 6'],
    ["(eq,a'b,1)", "character ''' is not allowed"],
    ['(eq,a;(eq,b,1)', "character ';' is not allowed", 'position 6'],
  ];
  for (const [expression, ...fragments] of malformed) {
    test(`rejects ${JSON.stringify(expression)}`, () => {
      assertBadRequest(() => parseFilter(expression), 'Invalid filter expression', ...fragments);
    });
  }

  test('huge inputs parse in one pass and errors stay short', () => {
    const quotes = "''".repeat(500_000);
    assert.equal(parseFilter(`(eq,a,'${quotes}')`)[0].values[0].length, 500_000);
    const many = Array.from({ length: 50_000 }, (_, i) => `(eq,a,${i})`).join(';');
    assert.equal(parseFilter(many).length, 50_000);
    const detail = assertBadRequest(() => parseFilter(`(eq,a,'${'x'.repeat(1_000_000)}`), 'unterminated');
    assert.ok(detail.length < 300, detail);
  });
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bindFilter, compileFilter, parseFilter } from '../../../../src/http/sol013/filter/index.ts';
import type { AttributeMap } from '../../../../src/sol/attributes.ts';
import { assertBadRequest } from './assert-problem.ts';

const attributes: AttributeMap = {
  id: { type: 'uuid', column: 'id' },
  name: { type: 'string' },
  size: { type: 'number' },
  enabled: { type: 'boolean' },
  createdAt: { type: 'datetime' },
  state: { type: 'enum', values: ['ONBOARDED', 'CREATED'] },
  'softwareImages/minDisk': { type: 'number' },
  userDefinedData: { type: 'keyValue' },
};

const bind = (expression: string) => compileFilter(expression, attributes).terms;

describe('bindFilter', () => {
  test('resolves exact keys, nested keys and keyValue sub-keys', () => {
    const [a, b, c] = bind('(eq,id,x);(gt,softwareImages/minDisk,2);(eq,userDefinedData/a~1b/c,v)');
    assert.equal(a.attribute, 'id');
    assert.equal(a.spec, attributes.id);
    assert.equal(b.attribute, 'softwareImages/minDisk');
    assert.deepEqual(b.path, ['softwareImages', 'minDisk']);
    assert.equal(c.attribute, 'userDefinedData');
    assert.deepEqual(c.path, ['userDefinedData', 'a/b', 'c']);
    assert.deepEqual(c.values, ['v']);
  });

  test('keeps the source and position of the term', () => {
    const terms = bindFilter(parseFilter('(eq,id,x);(eq,name,y)'), attributes).terms;
    assert.equal(terms[1].source, '(eq,name,y)');
    assert.equal(terms[1].position, 11);
  });

  test('rejects unknown attributes, naming them', () => {
    assertBadRequest(
      () => bind('(eq,nope,1)'),
      "unknown attribute 'nope'",
      'position 1',
      'term "(eq,nope,1)"',
    );
    assertBadRequest(
      () => bind('(eq,id,1);(eq,softwareImages,1)'),
      "unknown attribute 'softwareImages'",
      'position 11',
    );
    assertBadRequest(() => bind('(eq,name/x,1)'), "unknown attribute 'name/x'");
    assertBadRequest(() => bind('(eq,na~1me,1)'), "unknown attribute 'na~1me'");
    assertBadRequest(() => bind('(eq,constructor,1)'), "unknown attribute 'constructor'");
    assertBadRequest(() => bind('(eq,__proto__,1)'), "unknown attribute '__proto__'");
  });

  test('a keyValue map needs a key', () => {
    assertBadRequest(
      () => bind('(eq,userDefinedData,1)'),
      "'userDefinedData' is a key/value map",
      'userDefinedData/<key>',
    );
  });

  test('operators allowed per type', () => {
    const value: Record<string, string> = {
      id: 'x',
      name: 'x',
      size: '1',
      enabled: 'true',
      createdAt: '2026-01-01T00:00:00Z',
      state: 'CREATED',
      'softwareImages/minDisk': '1',
      'userDefinedData/k': 'x',
    };
    const allowed: Record<string, string[]> = {
      id: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'cont', 'ncont'],
      name: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'cont', 'ncont'],
      'userDefinedData/k': ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'cont', 'ncont'],
      size: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'],
      'softwareImages/minDisk': ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'],
      createdAt: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin'],
      enabled: ['eq', 'neq', 'in', 'nin'],
      state: ['eq', 'neq', 'in', 'nin'],
    };
    for (const [path, ops] of Object.entries(allowed)) {
      for (const op of ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'cont', 'ncont']) {
        const expression = `(${op},${path},${value[path]})`;
        if (ops.includes(op)) assert.equal(bind(expression)[0].op, op, expression);
        else assertBadRequest(() => bind(expression), `operator '${op}' is not allowed`, `'${path}'`);
      }
    }
  });

  test('numbers', () => {
    assert.deepEqual(bind('(in,size,1.5,-2e3,+7,.5,3.)')[0].values, [1.5, -2000, 7, 0.5, 3]);
    for (const bad of ['abc', ' ', "''", '0x10', 'Infinity', 'NaN', '1e999', "'1,5'"]) {
      assertBadRequest(() => bind(`(eq,softwareImages/minDisk,${bad})`), 'is not a number for attribute');
    }
    assertBadRequest(
      () => bind('(eq,softwareImages/minDisk,abc)'),
      "value 'abc' is not a number for attribute 'softwareImages/minDisk'",
    );
  });

  test('booleans', () => {
    assert.deepEqual(bind('(in,enabled,true,false)')[0].values, [true, false]);
    for (const bad of ['TRUE', '1', 'yes', "''"]) {
      assertBadRequest(() => bind(`(eq,enabled,${bad})`), 'is not a boolean', "attribute 'enabled'");
    }
  });

  test('datetimes become instants', () => {
    const [term] = bind(
      "(in,createdAt,2026-01-01T01:00:00+01:00,2026-01-01T00:00:00.5Z,'2025-12-31t23:00:00-01:00')",
    );
    assert.deepEqual(term.values, [
      Date.UTC(2026, 0, 1),
      Date.UTC(2026, 0, 1, 0, 0, 0, 500),
      Date.UTC(2026, 0, 1),
    ]);
    for (const bad of [
      '2026-02-30T00:00:00Z',
      '2026-01-01',
      '2026-01-01T00:00:00',
      'yesterday',
      '2026-01-01T24:00:00Z',
    ]) {
      assertBadRequest(() => bind(`(eq,createdAt,${bad})`), `value '${bad}' is not an RFC 3339 date-time`);
    }
    // The usual mistake: an unencoded '+' arrives as a space.
    assertBadRequest(() => bind('(eq,createdAt,2026-01-01T01:00:00 01:00)'), '%2B');
    assertBadRequest(() => bind('(eq,createdAt,9999-12-31T23:00:00-05:00)'), 'out of range');
  });

  test('enums must be one of the declared values', () => {
    assert.deepEqual(bind('(in,state,CREATED,ONBOARDED)')[0].values, ['CREATED', 'ONBOARDED']);
    assertBadRequest(
      () => bind('(eq,state,created)'),
      "value 'created' is not allowed",
      'ONBOARDED, CREATED',
    );
  });

  test('uuid, string and keyValue values are kept as written', () => {
    assert.deepEqual(
      bind("(eq,id,not-a-uuid);(eq,name,'');(eq,userDefinedData/k,007)").map((t) => t.values),
      [['not-a-uuid'], [''], ['007']],
    );
  });
});

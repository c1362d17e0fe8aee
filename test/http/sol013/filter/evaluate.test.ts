import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileFilter, matchesFilter } from '../../../../src/http/sol013/filter/index.ts';
import type { AttributeMap } from '../../../../src/sol/attributes.ts';

const attributes: AttributeMap = {
  id: { type: 'uuid' },
  name: { type: 'string' },
  size: { type: 'number' },
  enabled: { type: 'boolean' },
  createdAt: { type: 'datetime' },
  state: { type: 'enum', values: ['A', 'B'] },
  tags: { type: 'string' },
  'softwareImages/minDisk': { type: 'number' },
  'softwareImages/name': { type: 'string' },
  'vnfcs/cps/address': { type: 'string' },
  userDefinedData: { type: 'keyValue' },
};

const matches = (resource: unknown, expression: string) =>
  matchesFilter(resource, compileFilter(expression, attributes));

/** Asserts each [expression, expected] row on one resource. */
function check(resource: unknown, rows: [string, boolean][]) {
  for (const [expression, expected] of rows) {
    assert.equal(matches(resource, expression), expected, expression);
  }
}

describe('matchesFilter', () => {
  test('scalar attributes with every operator', () => {
    const resource = { id: 'b2', name: 'alpha', size: 10, enabled: true, state: 'A' };
    check(resource, [
      ['(eq,name,alpha)', true],
      ['(eq,name,Alpha)', false],
      ['(neq,name,alpha)', false],
      ['(neq,name,beta)', true],
      ['(gt,size,9)', true],
      ['(gt,size,10)', false],
      ['(gte,size,10)', true],
      ['(lt,size,10)', false],
      ['(lte,size,10)', true],
      ['(lt,size,10.5)', true],
      ['(in,size,1,10)', true],
      ['(in,size,1,2)', false],
      ['(nin,size,1,10)', false],
      ['(nin,size,1,2)', true],
      ['(cont,name,lph)', true],
      ['(cont,name,xyz,ph)', true],
      ['(cont,name,LPH)', false],
      ['(ncont,name,xyz,ph)', false],
      ['(ncont,name,xyz)', true],
      ['(eq,enabled,true)', true],
      ['(neq,enabled,true)', false],
      ['(in,enabled,false)', false],
      ['(eq,state,A)', true],
      ['(nin,state,B)', true],
      ['(gt,id,b1)', true],
      ['(gt,id,b10)', true], // text order, not numeric
      ['(cont,id,2)', true],
    ]);
  });

  test('terms are ANDed', () => {
    const resource = { name: 'alpha', size: 10 };
    assert.equal(matches(resource, '(eq,name,alpha);(gt,size,5)'), true);
    assert.equal(matches(resource, '(eq,name,alpha);(gt,size,50)'), false);
    assert.equal(matchesFilter(resource, { terms: [] }), true);
  });

  test('paths go through arrays; any element satisfying a positive term is enough', () => {
    const resource = {
      softwareImages: [{ minDisk: 1, name: 'a' }, { minDisk: 10 }, { name: 'c' }],
      vnfcs: [
        { cps: [{ address: '10.0.0.1' }, { address: '10.0.0.2' }] },
        { cps: [] },
        { cps: { address: '192.168.0.9' } },
      ],
      tags: ['red', 'green'],
    };
    check(resource, [
      ['(eq,softwareImages/minDisk,10)', true],
      ['(eq,softwareImages/minDisk,5)', false],
      ['(gt,softwareImages/minDisk,5)', true],
      ['(lt,softwareImages/minDisk,0)', false],
      ['(in,softwareImages/minDisk,3,10)', true],
      ['(eq,softwareImages/name,c)', true],
      ['(eq,vnfcs/cps/address,10.0.0.2)', true],
      ['(eq,vnfcs/cps/address,192.168.0.9)', true],
      ['(cont,vnfcs/cps/address,168)', true],
      ['(eq,tags,green)', true],
      ['(cont,tags,ee)', true],
    ]);
  });

  test('negative terms match when no element satisfies the positive twin', () => {
    const resource = { softwareImages: [{ minDisk: 1 }, { minDisk: 10 }], tags: ['red', 'green'] };
    check(resource, [
      ['(neq,softwareImages/minDisk,1)', false],
      ['(neq,softwareImages/minDisk,2)', true],
      ['(nin,softwareImages/minDisk,1,2)', false],
      ['(nin,softwareImages/minDisk,2,3)', true],
      ['(neq,tags,red)', false],
      ['(ncont,tags,ee)', false],
      ['(ncont,tags,blue,x)', true],
    ]);
  });

  test('absent, null and empty: positive terms fail, negative terms match', () => {
    for (const resource of [
      {},
      { name: null, size: null, softwareImages: null },
      { softwareImages: [], tags: [] },
    ]) {
      check(resource, [
        ['(eq,name,x)', false],
        ['(gt,size,0)', false],
        ['(in,softwareImages/minDisk,1)', false],
        ['(cont,name,x)', false],
        ['(neq,name,x)', true],
        ['(nin,size,1,2)', true],
        ['(ncont,name,x)', true],
        ['(neq,softwareImages/minDisk,1)', true],
        ['(neq,tags,red)', true],
      ]);
    }
    // An element without the attribute does not count as "not equal".
    check({ softwareImages: [{}, { minDisk: null }] }, [
      ['(eq,softwareImages/minDisk,1)', false],
      ['(neq,softwareImages/minDisk,1)', true],
    ]);
    // Descending into a scalar reaches nothing.
    check({ softwareImages: 'none' }, [
      ['(eq,softwareImages/minDisk,1)', false],
      ['(neq,softwareImages/minDisk,1)', true],
    ]);
  });

  test('values of the wrong type in the data never satisfy', () => {
    check({ size: '10', enabled: 'true', name: 5, createdAt: 'soon' }, [
      ['(eq,size,10)', false],
      ['(neq,size,10)', true],
      ['(eq,enabled,true)', false],
      ['(eq,name,5)', false],
      ['(lt,createdAt,2100-01-01T00:00:00Z)', false],
    ]);
  });

  test('datetimes compare as instants, whatever the offsets', () => {
    check({ createdAt: '2026-01-01T00:00:00Z' }, [
      ['(eq,createdAt,2026-01-01T01:00:00+01:00)', true],
      ['(eq,createdAt,2026-01-01T00:00:00.000Z)', true],
      ['(eq,createdAt,2026-01-01T00:00:00.001Z)', false],
      ['(gt,createdAt,2025-12-31T23:30:00-01:00)', false],
      ['(lt,createdAt,2025-12-31T23:30:00-01:00)', true],
      ['(gte,createdAt,2025-12-31T19:00:00-05:00)', true],
      ['(in,createdAt,2020-01-01T00:00:00Z,2025-12-31T16:00:00-08:00)', true],
      ['(nin,createdAt,2025-12-31T16:00:00-08:00)', false],
    ]);
    check({ createdAt: '2026-01-01T01:00:00+01:00' }, [['(eq,createdAt,2026-01-01T00:00:00Z)', true]]);
  });

  test('strings order by code point', () => {
    // In UTF-16, '😀' (U+1F600) starts with 0xD83D < 0xFFFF; by code point it is greater.
    check({ name: '😀' }, [
      ['(gt,name,\uffff)', true],
      ['(lt,name,\uffff)', false],
    ]);
    check({ name: 'B' }, [['(lt,name,a)', true]]);
  });

  test('keyValue leaves take the type of the data', () => {
    const resource = {
      userDefinedData: {
        num: 5,
        flag: true,
        s: 'hello',
        d: '2026-01-01T00:00:00Z',
        nested: { deep: 'x' },
        list: [1, 2, 3],
        'a/b': 'slash',
      },
    };
    check(resource, [
      ['(eq,userDefinedData/num,5)', true],
      ['(eq,userDefinedData/num,5.0)', true],
      ['(eq,userDefinedData/num,abc)', false],
      ['(neq,userDefinedData/num,abc)', true],
      ['(gt,userDefinedData/num,4)', true],
      ['(lt,userDefinedData/num,4)', false],
      ['(cont,userDefinedData/num,5)', true],
      ['(eq,userDefinedData/flag,true)', true],
      ['(eq,userDefinedData/flag,false)', false],
      ['(eq,userDefinedData/flag,1)', false],
      ['(eq,userDefinedData/s,hello)', true],
      ['(cont,userDefinedData/s,ell)', true],
      ['(gt,userDefinedData/s,hell)', true],
      ['(eq,userDefinedData/d,2026-01-01T00:00:00Z)', true],
      ['(eq,userDefinedData/d,2026-01-01T01:00:00+01:00)', false],
      ['(gt,userDefinedData/d,2025)', true],
      ['(eq,userDefinedData/nested/deep,x)', true],
      ['(eq,userDefinedData/nested,x)', false],
      ['(in,userDefinedData/list,3,4)', true],
      ['(nin,userDefinedData/list,3,4)', false],
      ['(eq,userDefinedData/a~1b,slash)', true],
      ['(eq,userDefinedData/missing,x)', false],
      ['(neq,userDefinedData/missing,x)', true],
    ]);
  });

  test('inherited properties are not attributes', () => {
    check({}, [['(eq,userDefinedData/constructor,x)', false]]);
    check({ userDefinedData: {} }, [
      ['(cont,userDefinedData/toString,function)', false],
      ['(cont,userDefinedData/__proto__,o)', false],
    ]);
  });
});

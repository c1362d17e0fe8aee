import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applySelector, parseSelectors, type SelectorQuery } from '../../../src/http/sol013/selectors.ts';
import { assertBadRequest } from './filter/assert-problem.ts';

describe('parseSelectors', () => {
  test('valid combinations', () => {
    assert.deepEqual(parseSelectors({}), { kind: 'default' });
    assert.deepEqual(parseSelectors({ exclude_default: '' }), { kind: 'default' });
    assert.deepEqual(parseSelectors({ all_fields: '' }), { kind: 'all' });
    assert.deepEqual(parseSelectors({ fields: 'a,b/c' }), { kind: 'fields', fields: [['a'], ['b', 'c']] });
    assert.deepEqual(parseSelectors({ fields: 'a', exclude_default: '' }), {
      kind: 'default',
      fields: [['a']],
    });
    assert.deepEqual(parseSelectors({ exclude_fields: 'x/y' }), { kind: 'exclude', fields: [['x', 'y']] });
  });

  test('tilde escapes in paths', () => {
    assert.deepEqual(parseSelectors({ fields: 'a~1b/c~ad,e~be~0' }), {
      kind: 'fields',
      fields: [['a/b', 'c,d'], ['e@e~']],
    });
  });

  const invalid: [SelectorQuery, ...string[]][] = [
    [{ all_fields: '', fields: 'a' }, "'all_fields' cannot be combined with 'fields'"],
    [{ all_fields: '', exclude_fields: 'a' }, "'all_fields' cannot be combined with 'exclude_fields'"],
    [{ all_fields: '', exclude_default: '' }, "'all_fields' cannot be combined with 'exclude_default'"],
    [{ fields: 'a', exclude_fields: 'b' }, "'fields' cannot be combined with 'exclude_fields'"],
    [
      { exclude_fields: 'a', exclude_default: '' },
      "'exclude_fields' cannot be combined with 'exclude_default'",
    ],
    [{ all_fields: 'yes' }, "'all_fields' is a flag", "'yes'"],
    [{ exclude_default: 'true' }, "'exclude_default' is a flag"],
    [{ fields: '' }, "'fields' needs a comma-separated list"],
    [{ exclude_fields: '' }, "'exclude_fields' needs a comma-separated list"],
    [{ fields: 'a,,b' }, "'fields' has an empty item at index 1"],
    [{ exclude_fields: 'a,' }, "'exclude_fields' has an empty item at index 1"],
    [{ fields: 'a//b' }, "'fields' item 'a//b'", 'empty attribute name segment'],
    [{ fields: 'a/' }, 'empty attribute name segment'],
    [{ fields: 'a~x' }, "invalid escape '~x'"],
    [{ fields: ['a', 'b'] as unknown as string }, "'fields' must be given at most once"],
  ];
  for (const [query, ...fragments] of invalid) {
    test(`rejects ${JSON.stringify(query)}`, () => {
      assertBadRequest(() => parseSelectors(query), 'Invalid attribute selector', ...fragments);
    });
  }
});

describe('applySelector', () => {
  const resource = {
    id: 'i1',
    vnfdId: 'd1',
    count: 3,
    flag: false,
    nothing: null,
    vnfConfigurableProperties: { a: 1 },
    instantiatedVnfInfo: {
      flavourId: 'simple',
      vnfcResourceInfo: [
        { id: 'c1', computeResource: { resourceId: 'r1', vimConnectionId: 'v' } },
        { id: 'c2', computeResource: { resourceId: 'r2' } },
        { id: 'c3' },
      ],
    },
    metadata: { k: 'v' },
    extensions: {},
    tags: ['a', 'b'],
    _links: { self: { href: '/x' }, indicators: { href: '/y' } },
  };
  const defaults = [
    'vnfConfigurableProperties',
    'vimConnectionInfo',
    'instantiatedVnfInfo',
    'metadata',
    'extensions',
  ];
  const simple = { id: 'i1', vnfdId: 'd1', count: 3, flag: false, nothing: null, _links: resource._links };
  const apply = (query: SelectorQuery, excluded: readonly string[] = defaults) =>
    applySelector(resource, parseSelectors(query), excluded);

  test('all_fields returns everything, as a new object', () => {
    const out = apply({ all_fields: '' });
    assert.deepEqual(out, resource);
    assert.notEqual(out, resource);
  });

  test('default leaves out the default-excluded attributes only', () => {
    assert.deepEqual(apply({}), { ...simple, tags: ['a', 'b'] });
    assert.deepEqual(apply({ exclude_default: '' }), { ...simple, tags: ['a', 'b'] });
  });

  test('fields with exclude_default brings listed attributes back, whole or in part', () => {
    assert.deepEqual(apply({ exclude_default: '', fields: 'metadata' }), {
      ...simple,
      tags: ['a', 'b'],
      metadata: { k: 'v' },
    });
    assert.deepEqual(apply({ exclude_default: '', fields: 'instantiatedVnfInfo/flavourId,tags' }), {
      ...simple,
      tags: ['a', 'b'],
      instantiatedVnfInfo: { flavourId: 'simple' },
    });
  });

  test('nested default exclusions apply through arrays and can be partly restored', () => {
    const nested = ['instantiatedVnfInfo/vnfcResourceInfo/computeResource', 'metadata'];
    const infoWith = (computeResource: (i: number) => object | undefined) => ({
      flavourId: 'simple',
      vnfcResourceInfo: ['c1', 'c2', 'c3'].map((id, i) => {
        const cr = computeResource(i);
        return cr ? { id, computeResource: cr } : { id };
      }),
    });
    const base = { ...simple, vnfConfigurableProperties: { a: 1 }, extensions: {}, tags: ['a', 'b'] };
    assert.deepEqual(apply({}, nested), { ...base, instantiatedVnfInfo: infoWith(() => undefined) });
    assert.deepEqual(
      apply(
        { exclude_default: '', fields: 'instantiatedVnfInfo/vnfcResourceInfo/computeResource/resourceId' },
        nested,
      ),
      {
        ...base,
        instantiatedVnfInfo: infoWith((i) => (i < 2 ? { resourceId: `r${i + 1}` } : undefined)),
      },
    );
    // A listed ancestor restores the whole excluded subtree.
    assert.deepEqual(apply({ exclude_default: '', fields: 'instantiatedVnfInfo' }, nested), {
      ...base,
      instantiatedVnfInfo: resource.instantiatedVnfInfo,
    });
  });

  test('fields keeps simple attributes, _links and only the listed complex paths', () => {
    assert.deepEqual(apply({ fields: 'id' }), simple);
    assert.deepEqual(apply({ fields: 'tags,metadata/k' }), {
      ...simple,
      tags: ['a', 'b'],
      metadata: { k: 'v' },
    });
    assert.deepEqual(apply({ fields: 'instantiatedVnfInfo/vnfcResourceInfo/id' }), {
      ...simple,
      instantiatedVnfInfo: { vnfcResourceInfo: [{ id: 'c1' }, { id: 'c2' }, { id: 'c3' }] },
    });
    assert.deepEqual(
      apply({ fields: 'instantiatedVnfInfo/vnfcResourceInfo/computeResource/resourceId,metadata/none' }),
      {
        ...simple,
        instantiatedVnfInfo: {
          vnfcResourceInfo: [
            { computeResource: { resourceId: 'r1' } },
            { computeResource: { resourceId: 'r2' } },
            {},
          ],
        },
        metadata: {},
      },
    );
    assert.deepEqual(apply({ fields: 'tags/x' }), { ...simple, tags: [] });
  });

  test('exclude_fields removes listed paths, through arrays, never simple attributes or _links', () => {
    assert.deepEqual(
      apply({
        exclude_fields: 'instantiatedVnfInfo/vnfcResourceInfo/computeResource,tags,id,_links,_links/self',
      }),
      {
        ...simple,
        vnfConfigurableProperties: { a: 1 },
        instantiatedVnfInfo: {
          flavourId: 'simple',
          vnfcResourceInfo: [{ id: 'c1' }, { id: 'c2' }, { id: 'c3' }],
        },
        metadata: { k: 'v' },
        extensions: {},
      },
    );
    assert.deepEqual(
      apply({ exclude_fields: 'instantiatedVnfInfo,instantiatedVnfInfo/flavourId' }).instantiatedVnfInfo,
      undefined,
    );
  });

  test('never mutates the input', () => {
    const before = structuredClone(resource);
    for (const query of [
      {},
      { all_fields: '' },
      { fields: 'instantiatedVnfInfo/vnfcResourceInfo/id' },
      { exclude_fields: 'instantiatedVnfInfo/vnfcResourceInfo/computeResource/resourceId,metadata/k' },
      { exclude_default: '', fields: 'instantiatedVnfInfo/vnfcResourceInfo/computeResource/resourceId' },
    ]) {
      apply(query, [...defaults, 'instantiatedVnfInfo/vnfcResourceInfo/computeResource']);
      apply(query, ['instantiatedVnfInfo/vnfcResourceInfo/computeResource']);
    }
    assert.deepEqual(resource, before);
  });
});

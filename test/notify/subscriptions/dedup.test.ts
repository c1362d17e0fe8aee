/** The duplicate key: same criteria → same key, whatever the order; any real difference → another key. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { subscriptionApi } from '../../../src/notify/subscriptions/apis.ts';
import { dedupKey, normalFilter } from '../../../src/notify/subscriptions/dedup.ts';
import { subscriptionAttributes } from '../../../src/notify/subscriptions/filter-attributes.ts';

const CB = 'http://127.0.0.1:1/cb';

describe('subscription duplicate key', () => {
  test('key order, list order, repetition and empty criteria do not matter', () => {
    const a = dedupKey({
      callbackUri: CB,
      filter: {
        notificationTypes: ['B', 'A'],
        vnfInstanceSubscriptionFilter: { vnfdIds: ['x', 'y', 'x'], vnfInstanceIds: [] },
      },
    });
    const b = dedupKey({
      callbackUri: CB,
      filter: { vnfInstanceSubscriptionFilter: { vnfdIds: ['y', 'x'] }, notificationTypes: ['A', 'B'] },
    });
    assert.equal(a, b);
    assert.equal(dedupKey({ callbackUri: CB }), dedupKey({ callbackUri: CB, filter: {} }));
    assert.equal(
      dedupKey({ callbackUri: CB }),
      dedupKey({ callbackUri: CB, filter: { notificationTypes: [], vnfInstanceSubscriptionFilter: {} } }),
    );
    assert.match(a, /^[0-9a-f]{64}$/);
  });

  test('callback, criteria and verbosity make different keys', () => {
    const base = dedupKey({ callbackUri: CB, filter: { notificationTypes: ['A'] } });
    assert.notEqual(base, dedupKey({ callbackUri: `${CB}2`, filter: { notificationTypes: ['A'] } }));
    assert.notEqual(base, dedupKey({ callbackUri: CB, filter: { notificationTypes: ['A', 'B'] } }));
    assert.notEqual(base, dedupKey({ callbackUri: CB, filter: { operationTypes: ['A'] } }));
    assert.notEqual(
      base,
      dedupKey({ callbackUri: CB, filter: { notificationTypes: ['A'] }, verbosity: 'SHORT' }),
    );
    assert.notEqual(
      dedupKey({ callbackUri: CB, verbosity: 'FULL' }),
      dedupKey({ callbackUri: CB, verbosity: 'SHORT' }),
    );
  });

  test('nested lists of objects are sets too', () => {
    const one = normalFilter({
      vnfProductsFromProviders: [{ vnfProvider: 'b' }, { vnfProvider: 'a', vnfProducts: [] }],
    });
    const two = normalFilter({ vnfProductsFromProviders: [{ vnfProvider: 'a' }, { vnfProvider: 'b' }] });
    assert.deepEqual(one, two);
  });
});

describe('subscription list vocabulary', () => {
  test('derived from the filter schema: every leaf under filter/, enumerations with their values', () => {
    const lcm = subscriptionAttributes(subscriptionApi('vnflcm', 'v2'));
    assert.deepEqual(lcm.id, { type: 'uuid', column: 'id' });
    assert.deepEqual(lcm.callbackUri, { type: 'string', column: 'callback_uri' });
    assert.equal(lcm.verbosity.type, 'enum');
    assert.equal(lcm['filter/vnfInstanceSubscriptionFilter/vnfInstanceIds'].type, 'string');
    assert.equal(
      lcm['filter/vnfInstanceSubscriptionFilter/vnfProductsFromProviders/vnfProducts/versions/vnfdVersions']
        .type,
      'string',
    );
    assert.deepEqual(lcm['filter/operationStates'].values?.includes('FAILED_TEMP'), true);
    assert.deepEqual(lcm['filter/operationTypes'].values?.includes('CHANGE_VNFPKG'), true);
    // v1 (SOL003 v2.6.1) has no CHANGE_VNFPKG, and no verbosity.
    const v1 = subscriptionAttributes(subscriptionApi('vnflcm', 'v1'));
    assert.equal(v1['filter/operationTypes'].values?.includes('CHANGE_VNFPKG'), false);
    assert.equal(v1.verbosity, undefined);
    const fm = subscriptionAttributes(subscriptionApi('vnffm', 'v1'));
    assert.deepEqual(fm['filter/faultyResourceTypes'].values, ['COMPUTE', 'STORAGE', 'NETWORK']);
    assert.equal(fm['filter/probableCauses'].type, 'string');
    assert.equal(fm.verbosity, undefined);
  });
});

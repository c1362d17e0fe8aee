import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { describe, it } from 'node:test';
import { pinnedLookup } from '../../src/net/pinned-lookup.ts';

describe('pinnedLookup', () => {
  const lookup = pinnedLookup(['::1', '127.0.0.1']);

  it('answers every checked address, whatever the name, when all are asked for', () => {
    let answer: unknown;
    lookup('rebound.example', { all: true }, (_error, addresses) => {
      answer = addresses;
    });
    assert.deepEqual(answer as LookupAddress[], [
      { address: '::1', family: 6 },
      { address: '127.0.0.1', family: 4 },
    ]);
  });

  it('answers the first checked address otherwise', () => {
    let answer: unknown[] = [];
    lookup('rebound.example', {}, (error, address, family) => {
      answer = [error, address, family];
    });
    assert.deepEqual(answer, [null, '::1', 6]);
  });

  it('refuses to pin nothing', () => {
    assert.throws(() => pinnedLookup([]), /at least one/);
  });
});

/** Repeated key=value flags: the three ways a value is read, and the error for a pair without '='. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyValues } from '../../src/cli/key-values.ts';

const PAIRS = ['n=7', 'q="7"', 'o={"a":1}', 'b=true', 's=plain', 'e=a=b'];

test('json reads any JSON value, json-like only what looks like JSON, text none', () => {
  assert.deepEqual(keyValues(PAIRS, '--param'), { n: 7, q: '7', o: { a: 1 }, b: true, s: 'plain', e: 'a=b' });
  assert.deepEqual(keyValues(PAIRS, '--extra', 'json-like'), {
    n: 7,
    q: '"7"',
    o: { a: 1 },
    b: true,
    s: 'plain',
    e: 'a=b',
  });
  assert.deepEqual(keyValues(PAIRS, '--user-data', 'text'), {
    n: '7',
    q: '"7"',
    o: '{"a":1}',
    b: 'true',
    s: 'plain',
    e: 'a=b',
  });
});

test('a pair without a key names the option', () => {
  assert.throws(() => keyValues(['=x'], '--metadata'), /--metadata expects key=value, got '=x'/);
  assert.throws(() => keyValues(['novalue'], '--user-data', 'text'), /--user-data expects key=value/);
});

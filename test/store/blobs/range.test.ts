import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { checkRange, trimToRange } from '../../../src/store/blobs/range.ts';
import { readAll } from './streams.ts';

const chunks = () => Readable.from([Buffer.from('0123'), Buffer.from('4567'), Buffer.from('89')]);

test('a response that is exactly the range passes through', async () => {
  const body = chunks();
  assert.equal(trimToRange(body, { start: 0, end: 9 }, 'bytes 0-9/10'), body);
});

test('a whole body served for a range (Range ignored) is trimmed to it', async () => {
  assert.equal((await readAll(trimToRange(chunks(), { start: 3, end: 5 }, undefined))).toString(), '345');
  assert.equal((await readAll(trimToRange(chunks(), { start: 0, end: 0 }, undefined))).toString(), '0');
  assert.equal((await readAll(trimToRange(chunks(), { start: 9, end: 9 }, undefined))).toString(), '9');
});

test('a wider range than asked is trimmed from its own offset', async () => {
  const served = Readable.from([Buffer.from('234567')]);
  assert.equal((await readAll(trimToRange(served, { start: 4, end: 5 }, 'bytes 2-7/10'))).toString(), '45');
});

test('a response starting after the asked start is refused', () => {
  assert.throws(() => trimToRange(chunks(), { start: 1, end: 5 }, 'bytes 2-5/10'), /served bytes 2-5/);
});

test('malformed ranges are refused', () => {
  assert.throws(() => checkRange({ start: -1, end: 3 }), RangeError);
  assert.throws(() => checkRange({ start: 4, end: 3 }), RangeError);
  assert.throws(() => checkRange({ start: 0.5, end: 3 }), RangeError);
  assert.deepEqual(checkRange({ start: 3, end: 3 }), { start: 3, end: 3 });
});

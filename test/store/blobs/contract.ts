/**
 * The behaviour every BlobStore must have, run against each implementation by its test file.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { BlobNotFoundError, type BlobStore, BlobTooLargeError } from '../../../src/store/blobs/blob-store.ts';
import { InvalidBlobKeyError } from '../../../src/store/blobs/key.ts';
import { sweepBlobs } from '../../../src/store/blobs/sweep.ts';
import { digestOf, failingStream, patternStream, readAll } from './streams.ts';

export interface StoreUnderTest {
  store: BlobStore;
  /** Files a failed put must not leave behind (temp files). */
  leftovers(): Promise<string[]>;
  close(): Promise<void>;
}

const MiB = 2 ** 20;
const LIMIT = 64 * MiB;
const body = (text: string) => Readable.from([Buffer.from(text)]);
const keysOf = async (store: BlobStore, prefix: string) => {
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  return keys.sort();
};

export function blobStoreContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`BlobStore contract: ${name}`, () => {
    let t: StoreUnderTest;
    let store: BlobStore;
    before(async () => {
      t = await open();
      store = t.store;
    });
    after(() => t.close());

    test('put then get returns the bytes, size and the digests node:crypto computes', async () => {
      const content = Buffer.from('hello, blob store\n'.repeat(1000));
      const result = await store.put('rt/a.zip', Readable.from([content]), {
        maxBytes: LIMIT,
        digests: ['sha-256', 'sha-512'],
      });
      assert.equal(result.size, content.length);
      assert.equal(result.digests['sha-256'], createHash('sha256').update(content).digest('hex'));
      assert.equal(result.digests['sha-512'], createHash('sha512').update(content).digest('hex'));
      assert.equal(result.digests['sha-384'], undefined);
      assert.deepEqual(await readAll(await store.get('rt/a.zip')), content);
      assert.deepEqual(await store.stat('rt/a.zip').then((s) => s?.size), content.length);
    });

    test('an empty blob is a blob', async () => {
      const result = await store.put('rt/empty', Readable.from([]), { maxBytes: 10, digests: ['sha-256'] });
      assert.equal(result.size, 0);
      assert.equal(result.digests['sha-256'], createHash('sha256').digest('hex'));
      assert.equal((await readAll(await store.get('rt/empty'))).length, 0);
      assert.equal((await store.stat('rt/empty'))?.size, 0);
    });

    test('a 20 MiB body is streamed in, hashed and read back identical', async () => {
      const size = 20 * MiB;
      const result = await store.put('big/twenty', patternStream(size, 42), {
        maxBytes: LIMIT,
        digests: ['sha-256', 'sha-512'],
      });
      const expected = await digestOf(patternStream(size, 42));
      assert.equal(result.size, size);
      assert.equal(result.digests['sha-256'], expected.sha256);
      assert.equal(result.digests['sha-512'], expected.sha512);
      const back = await digestOf(await store.get('big/twenty'));
      assert.deepEqual(back, expected);
    });

    test('ranges are inclusive: first byte, middle, last byte, whole', async () => {
      const content = Buffer.from('0123456789abcdefghij');
      await store.put('range/r', Readable.from([content]), { maxBytes: LIMIT });
      const read = async (start: number, end: number) =>
        (await readAll(await store.get('range/r', { start, end }))).toString();
      assert.equal(await read(0, 0), '0');
      assert.equal(await read(5, 9), '56789');
      assert.equal(await read(19, 19), 'j');
      assert.equal(await read(0, 19), content.toString());
      await assert.rejects(store.get('range/r', { start: 5, end: 4 }), RangeError);
    });

    test('a body past maxBytes is refused with BlobTooLargeError and nothing is left', async () => {
      await assert.rejects(
        store.put('limit/over', patternStream(20 * MiB, 3), { maxBytes: 11 * MiB, digests: ['sha-512'] }),
        (err: unknown) => err instanceof BlobTooLargeError && err.limit === 11 * MiB,
      );
      assert.equal(await store.stat('limit/over'), undefined);
      assert.deepEqual(await keysOf(store, 'limit/'), []);
      assert.deepEqual(await t.leftovers(), []);
    });

    test('exactly maxBytes is accepted', async () => {
      const result = await store.put('limit/exact', patternStream(1000), { maxBytes: 1000 });
      assert.equal(result.size, 1000);
    });

    test('a failing source rejects with its own error and leaves nothing', async () => {
      const boom = new Error('client went away');
      await assert.rejects(
        store.put('fail/source', failingStream(12 * MiB, boom), { maxBytes: LIMIT }),
        boom,
      );
      assert.equal(await store.stat('fail/source'), undefined);
      const small = new Error('early');
      await assert.rejects(store.put('fail/small', failingStream(10, small), { maxBytes: LIMIT }), small);
      assert.equal(await store.stat('fail/small'), undefined);
      assert.deepEqual(await keysOf(store, 'fail/'), []);
      assert.deepEqual(await t.leftovers(), []);
    });

    test('overwriting replaces the content; a failed overwrite keeps the old one', async () => {
      await store.put('over/w', body('first version'), { maxBytes: LIMIT });
      await store.put('over/w', body('second'), { maxBytes: LIMIT });
      assert.equal((await readAll(await store.get('over/w'))).toString(), 'second');
      assert.equal((await store.stat('over/w'))?.size, 6);
      await assert.rejects(store.put('over/w', body('much too long'), { maxBytes: 8 }), BlobTooLargeError);
      assert.equal((await readAll(await store.get('over/w'))).toString(), 'second');
    });

    test('a missing blob: get and localFile reject with BlobNotFoundError, stat is undefined', async () => {
      await assert.rejects(store.get('missing/x'), (err: unknown) => {
        return err instanceof BlobNotFoundError && err.key === 'missing/x';
      });
      await assert.rejects(store.get('missing/x', { start: 0, end: 1 }), BlobNotFoundError);
      await assert.rejects(store.localFile('missing/x'), BlobNotFoundError);
      assert.equal(await store.stat('missing/x'), undefined);
    });

    test('delete removes the blob and is idempotent', async () => {
      await store.put('del/d', body('x'), { maxBytes: LIMIT });
      await store.localFile('del/d');
      await store.delete('del/d');
      assert.equal(await store.stat('del/d'), undefined);
      await assert.rejects(store.get('del/d'), BlobNotFoundError);
      await assert.rejects(store.localFile('del/d'), BlobNotFoundError);
      await store.delete('del/d');
      await store.delete('del/never-existed');
    });

    test('list returns the keys under a prefix, recursively', async () => {
      for (const key of [
        'ls/p1/package.zip',
        'ls/p1/extra/a.txt',
        'ls/p2/package.zip',
        'ls/p10/package.zip',
        'lsx',
      ]) {
        await store.put(key, body(key), { maxBytes: LIMIT });
      }
      assert.deepEqual(await keysOf(store, 'ls/'), [
        'ls/p1/extra/a.txt',
        'ls/p1/package.zip',
        'ls/p10/package.zip',
        'ls/p2/package.zip',
      ]);
      assert.deepEqual(await keysOf(store, 'ls/p1/'), ['ls/p1/extra/a.txt', 'ls/p1/package.zip']);
      assert.deepEqual(await keysOf(store, 'ls/p1'), [
        'ls/p1/extra/a.txt',
        'ls/p1/package.zip',
        'ls/p10/package.zip',
      ]);
      assert.deepEqual(await keysOf(store, 'nothing/'), []);
      // 'ls/p1' is only a prefix of other keys, not a blob.
      assert.equal(await store.stat('ls/p1'), undefined);
      await assert.rejects(store.get('ls/p1'), BlobNotFoundError);
      assert.ok((await keysOf(store, '')).includes('lsx'));
    });

    test('localFile is a file with the same bytes', async () => {
      const content = Buffer.from('zip bytes here');
      await store.put('lf/pkg.zip', Readable.from([content]), { maxBytes: LIMIT });
      const path = await store.localFile('lf/pkg.zip');
      assert.deepEqual(await readFile(path), content);
      await store.put('lf/pkg.zip', body('other bytes, same length?'), { maxBytes: LIMIT });
      assert.equal(
        (await readFile(await store.localFile('lf/pkg.zip'))).toString(),
        'other bytes, same length?',
      );
    });

    test('invalid keys are refused', async () => {
      for (const key of [
        '',
        '/abs',
        '../up',
        'a/../b',
        'a/./b',
        'a//b',
        'a/',
        '.hidden',
        'a/.b.part',
        'sp ace',
        'é',
        'a\\b',
      ]) {
        await assert.rejects(store.put(key, body('x'), { maxBytes: LIMIT }), InvalidBlobKeyError, key);
        await assert.rejects(store.get(key), InvalidBlobKeyError, key);
        await assert.rejects(store.stat(key), InvalidBlobKeyError, key);
        await assert.rejects(store.delete(key), InvalidBlobKeyError, key);
        await assert.rejects(store.localFile(key), InvalidBlobKeyError, key);
      }
      await assert.rejects(keysOf(store, '../'), InvalidBlobKeyError);
      await assert.rejects(keysOf(store, '/'), InvalidBlobKeyError);
    });

    test('sweep deletes only the blobs no live record owns', async () => {
      const live = new Set(['sw/p1/package.zip', 'sw/p3/package.zip']);
      for (const key of ['sw/p1/package.zip', 'sw/p2/package.zip', 'sw/p3/package.zip', 'sw/p4/extra']) {
        await store.put(key, body(key), { maxBytes: LIMIT });
      }
      await store.put('elsewhere/p2', body('not under the prefix'), { maxBytes: LIMIT });
      // A young orphan is spared while the age threshold says it may still be getting its record.
      assert.deepEqual(
        await sweepBlobs(store, 'sw/', (key) => live.has(key), { olderThanMs: 3_600_000 }),
        [],
      );
      const deleted = await sweepBlobs(store, 'sw/', async (key) => live.has(key));
      assert.deepEqual(deleted.sort(), ['sw/p2/package.zip', 'sw/p4/extra']);
      assert.deepEqual(await keysOf(store, 'sw/'), ['sw/p1/package.zip', 'sw/p3/package.zip']);
      assert.ok(await store.stat('elsewhere/p2'));
    });
  });
}

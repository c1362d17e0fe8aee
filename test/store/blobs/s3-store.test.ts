/**
 * The S3 blob store on each S3 implementation (moto, s3rver; s3-backends.ts): the BlobStore
 * contract, what only S3 does (prefix, multipart, the node-local cache), and every call while
 * the store is down. No database: once, not per dialect.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { BlobNotFoundError, BlobStoreUnavailableError } from '../../../src/store/blobs/blob-store.ts';
import { S3BlobStore } from '../../../src/store/blobs/s3-store.ts';
import { s3ClientFor } from '../../support/moto.ts';
import { blobStoreContract } from './contract.ts';
import { S3_BACKENDS, type S3Backend } from './s3-backends.ts';
import { readAll } from './streams.ts';

const MiB = 2 ** 20;

/** Counts the GetObject requests a client sends (the cache downloads). */
function countGets(client: S3Client): { count: number } {
  const counter = { count: 0 };
  client.middlewareStack.add(
    (next, context) => (args) => {
      if (context.commandName === 'GetObjectCommand') counter.count++;
      return next(args);
    },
    { step: 'initialize' },
  );
  return counter;
}

for (const kind of S3_BACKENDS) {
  // One server of each kind for the whole file.
  let started: Promise<S3Backend> | undefined;
  const backendOf = () => {
    started ??= kind.start();
    return started;
  };
  after(async () => (await started)?.stop());

  blobStoreContract(`s3 on ${kind.name}`, async () => {
    const backend = await backendOf();
    const cacheDir = await mkdtemp(join(tmpdir(), 'bosun-s3-cache-'));
    const store = new S3BlobStore({
      bucket: backend.bucket,
      prefix: 'contract/',
      region: 'us-east-1',
      endpoint: backend.endpoint,
      forcePathStyle: true,
      credentials: backend.credentials,
      cacheDir,
      partSize: 5 * MiB,
    });
    return {
      store,
      async leftovers() {
        const entries = await readdir(cacheDir, { recursive: true, withFileTypes: true });
        return entries.filter((e) => e.isFile() && e.name.endsWith('.part')).map((e) => e.name);
      },
      async close() {
        store.client.destroy();
        await rm(cacheDir, { recursive: true, force: true });
      },
    };
  });

  describe(`S3BlobStore specifics on ${kind.name}`, () => {
    let cacheDir: string;
    let client: S3Client;
    let gets: { count: number };
    let store: S3BlobStore;
    let TEST_BUCKET: string;
    before(async () => {
      const backend = await backendOf();
      TEST_BUCKET = backend.bucket;
      cacheDir = await mkdtemp(join(tmpdir(), 'bosun-s3-cache-'));
      client = s3ClientFor(backend.endpoint, backend.credentials);
      gets = countGets(client);
      store = new S3BlobStore({ bucket: TEST_BUCKET, prefix: 'bosun/', cacheDir, client, partSize: 5 * MiB });
    });
    after(async () => {
      client.destroy();
      await rm(cacheDir, { recursive: true, force: true });
    });

    test('objects live under the configured prefix; list returns keys without it', async () => {
      await store.put('packages/p1/package.zip', Readable.from([Buffer.from('abc')]), { maxBytes: 10 });
      const listed = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET, Prefix: 'bosun/' }));
      assert.deepEqual(
        listed.Contents?.map((o) => o.Key),
        ['bosun/packages/p1/package.zip'],
      );
      const keys: string[] = [];
      for await (const key of store.list('packages/')) keys.push(key);
      assert.deepEqual(keys, ['packages/p1/package.zip']);
    });

    test('a multipart put (several parts) is one object with the whole content', async () => {
      const content = Buffer.alloc(12 * MiB + 17, 9);
      const result = await store.put(
        'multi/blob',
        Readable.from([content.subarray(0, 6 * MiB), content.subarray(6 * MiB)]),
        {
          maxBytes: 64 * MiB,
        },
      );
      assert.equal(result.size, content.length);
      const object = await client.send(
        new GetObjectCommand({ Bucket: TEST_BUCKET, Key: 'bosun/multi/blob' }),
      );
      assert.equal(object.ContentLength, content.length);
      (object.Body as Readable).destroy();
    });

    test('localFile downloads once into the cache; a deleted cache file is rebuilt', async () => {
      const content = Buffer.from('cached package bytes');
      await store.put('cache/pkg.zip', Readable.from([content]), { maxBytes: 100 });
      const before = gets.count;
      const path = await store.localFile('cache/pkg.zip');
      assert.equal(path, join(cacheDir, 'cache', 'pkg.zip'));
      assert.deepEqual(await readFile(path), content);
      assert.equal(await store.localFile('cache/pkg.zip'), path);
      assert.equal(gets.count, before + 1, 'a current cache file is not downloaded again');
      await rm(path);
      assert.deepEqual(await readFile(await store.localFile('cache/pkg.zip')), content);
      assert.equal(gets.count, before + 2);
    });

    test('two concurrent localFile calls share one download', async () => {
      await store.put('cache/shared.zip', Readable.from([Buffer.alloc(3 * MiB, 1)]), { maxBytes: 10 * MiB });
      const before = gets.count;
      const [a, b] = await Promise.all([
        store.localFile('cache/shared.zip'),
        store.localFile('cache/shared.zip'),
      ]);
      assert.equal(a, b);
      assert.equal(gets.count, before + 1);
      assert.equal((await stat(a)).size, 3 * MiB);
    });

    test('a cache file whose size differs from the object is downloaded again', async () => {
      await store.put('cache/changed', Readable.from([Buffer.from('short')]), { maxBytes: 100 });
      const path = await store.localFile('cache/changed');
      await store.put('cache/changed', Readable.from([Buffer.from('a longer content')]), { maxBytes: 100 });
      assert.equal((await readFile(await store.localFile('cache/changed'))).toString(), 'a longer content');
      assert.equal(await store.localFile('cache/changed'), path);
    });

    test('delete also removes the cache file', async () => {
      await store.put('cache/gone', Readable.from([Buffer.from('x')]), { maxBytes: 100 });
      const path = await store.localFile('cache/gone');
      await store.delete('cache/gone');
      await assert.rejects(stat(path), { code: 'ENOENT' });
    });

    test('pruneCache drops copies of blobs deleted or replaced elsewhere, keeps current ones', async () => {
      for (const key of ['prune/kept', 'prune/deleted', 'prune/replaced']) {
        await store.put(key, Readable.from([Buffer.from(key)]), { maxBytes: 100 });
        await store.localFile(key);
      }
      // Another replica's doing: the objects change behind this store's back.
      const other = new S3BlobStore({
        bucket: TEST_BUCKET,
        prefix: 'bosun/',
        cacheDir: `${cacheDir}-other`,
        client,
      });
      await other.delete('prune/deleted');
      await other.put('prune/replaced', Readable.from([Buffer.from('new, and longer than before')]), {
        maxBytes: 100,
      });
      const dropped = (await store.pruneCache()).filter((key) => key.startsWith('prune/'));
      assert.deepEqual(dropped.sort(), ['prune/deleted', 'prune/replaced']);
      assert.ok(await stat(join(cacheDir, 'prune', 'kept')));
      await rm(`${cacheDir}-other`, { recursive: true, force: true });
    });

    test('a range starting past the end is empty', async () => {
      await store.put('range/short', Readable.from([Buffer.from('abc')]), { maxBytes: 100 });
      const chunks: Buffer[] = [];
      for await (const chunk of await store.get('range/short', { start: 10, end: 20 })) chunks.push(chunk);
      assert.equal(Buffer.concat(chunks).length, 0);
    });
  });

  describe(`S3BlobStore while ${kind.name} is down (it ${kind.outage})`, () => {
    let backend: S3Backend;
    let cacheDir: string;
    let store: S3BlobStore;
    before(async () => {
      backend = await backendOf();
      cacheDir = await mkdtemp(join(tmpdir(), 'bosun-s3-cache-'));
      // Short, so that a hung store fails each call within seconds.
      store = new S3BlobStore({
        bucket: backend.bucket,
        prefix: 'down/',
        endpoint: backend.endpoint,
        credentials: backend.credentials,
        cacheDir,
        partSize: 5 * MiB,
        connectTimeoutMs: 500,
        idleTimeoutMs: 500,
        maxAttempts: 2,
      });
    });
    after(async () => {
      store.client.destroy();
      await rm(cacheDir, { recursive: true, force: true });
    });

    test('every call fails with BlobStoreUnavailableError naming it; nothing is half-done; all works once it is back', async () => {
      await store.put('kept/blob', Readable.from([Buffer.from('kept bytes')]), { maxBytes: 100 });
      await backend.goDown();
      try {
        const calls: [string, () => Promise<unknown>][] = [
          ['HeadObject of kept/blob', () => store.stat('kept/blob')],
          ['GetObject of kept/blob', () => store.get('kept/blob')],
          ['GetObject of kept/blob', () => store.get('kept/blob', { start: 2, end: 4 })],
          ['HeadObject of kept/blob', () => store.localFile('kept/blob')],
          // A request the hung store holds is served once it answers again: only calls whose
          // late success changes nothing are made here (a delete of what is not there, a
          // multipart put, which is never completed).
          ['DeleteObject of never/there', () => store.delete('never/there')],
          ['ListObjectsV2 of kept/', () => readAll(Readable.from(store.list('kept/')))],
          [
            'upload of new/blob',
            () => store.put('new/blob', Readable.from([Buffer.alloc(12 * MiB, 3)]), { maxBytes: 64 * MiB }),
          ],
        ];
        for (const [operation, call] of calls) {
          await assert.rejects(call(), (err: unknown) => {
            assert.ok(err instanceof BlobStoreUnavailableError, `${operation}: ${err}`);
            assert.equal(err.status, 503);
            assert.equal(err.operation, operation);
            assert.equal(err.headers['Retry-After'], '30');
            assert.doesNotMatch(err.detail, /127\.0\.0\.1/);
            return true;
          });
        }
      } finally {
        await backend.comeBack();
      }
      // The failed put wrote nothing; what was there is intact.
      assert.equal((await readAll(await store.get('kept/blob'))).toString(), 'kept bytes');
      assert.equal(await store.stat('new/blob'), undefined);
      await assert.rejects(store.get('new/blob'), BlobNotFoundError);
      await store.put('new/blob', Readable.from([Buffer.alloc(12 * MiB, 3)]), { maxBytes: 64 * MiB });
      assert.equal((await store.stat('new/blob'))?.size, 12 * MiB);
      await store.delete('kept/blob');
      assert.equal(await store.stat('kept/blob'), undefined);
    });
  });
}

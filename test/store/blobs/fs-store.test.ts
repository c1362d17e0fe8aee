import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { FsBlobStore } from '../../../src/store/blobs/fs-store.ts';
import { sweepBlobs } from '../../../src/store/blobs/sweep.ts';
import { blobStoreContract } from './contract.ts';

/** Every file under `dir` whose name marks it temporary. */
async function tempFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.endsWith('.part')).map((e) => join(e.parentPath, e.name));
}

blobStoreContract('fs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-fs-blobs-'));
  return {
    store: new FsBlobStore(dir),
    leftovers: () => tempFiles(dir),
    close: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('FsBlobStore specifics', () => {
  let dir: string;
  let store: FsBlobStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bosun-fs-blobs-'));
    store = new FsBlobStore(dir);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('a key is a path under the folder, and localFile is that path', async () => {
    await store.put('packages/p1/package.zip', Readable.from([Buffer.from('abc')]), { maxBytes: 10 });
    const path = join(dir, 'packages', 'p1', 'package.zip');
    assert.equal((await stat(path)).size, 3);
    assert.equal(await store.localFile('packages/p1/package.zip'), path);
  });

  test('delete prunes the folders it empties, not the store folder', async () => {
    await store.put('prune/a/b/blob', Readable.from([Buffer.from('x')]), { maxBytes: 10 });
    await store.delete('prune/a/b/blob');
    await assert.rejects(stat(join(dir, 'prune')), { code: 'ENOENT' });
    assert.ok((await stat(dir)).isDirectory());
  });

  test('list skips temp files of puts in progress', async () => {
    await store.put('tmp/real', Readable.from([Buffer.from('x')]), { maxBytes: 10 });
    await writeFile(join(dir, 'tmp', '.other.abc123.part'), 'partial');
    const keys: string[] = [];
    for await (const key of store.list('tmp/')) keys.push(key);
    assert.deepEqual(keys, ['tmp/real']);
    await rm(join(dir, 'tmp', '.other.abc123.part'));
  });

  test('sweep removes temp files older than the threshold, not fresh ones', async () => {
    await mkdir(join(dir, 'stale'), { recursive: true });
    const old = join(dir, 'stale', '.package.zip.aaaaaa.part');
    const fresh = join(dir, 'stale', '.package.zip.bbbbbb.part');
    await writeFile(old, 'abandoned');
    await writeFile(fresh, 'being written');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(old, twoHoursAgo, twoHoursAgo);
    await sweepBlobs(store, 'stale/', () => false, { olderThanMs: 3_600_000 });
    await assert.rejects(stat(old), { code: 'ENOENT' });
    assert.ok(await stat(fresh));
    await rm(fresh);
  });

  test('an old orphan blob is swept when past the threshold', async () => {
    await store.put('aged/orphan', Readable.from([Buffer.from('x')]), { maxBytes: 10 });
    const past = new Date(Date.now() - 2 * 3_600_000);
    await utimes(join(dir, 'aged', 'orphan'), past, past);
    await store.put('aged/young', Readable.from([Buffer.from('y')]), { maxBytes: 10 });
    assert.deepEqual(await sweepBlobs(store, 'aged/', () => false, { olderThanMs: 3_600_000 }), [
      'aged/orphan',
    ]);
    assert.ok(await store.stat('aged/young'));
  });
});

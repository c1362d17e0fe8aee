import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError } from '../../../src/config/errors.ts';
import { loadConfig } from '../../../src/config/load.ts';
import { FsBlobStore } from '../../../src/store/blobs/fs-store.ts';
import { createBlobStore } from '../../../src/store/blobs/index.ts';
import { S3BlobStore } from '../../../src/store/blobs/s3-store.ts';

const config = (blobs: Record<string, unknown>) =>
  loadConfig({ env: {}, file: undefined, overrides: { blobs } });

test('createBlobStore gives the fs store by default, rooted at blobs.dir', () => {
  const store = createBlobStore(config({ dir: '/tmp/bosun-blobs-x' }));
  assert.ok(store instanceof FsBlobStore);
  assert.equal(store.kind, 'fs');
  assert.equal(store.dir, '/tmp/bosun-blobs-x');
});

test('createBlobStore gives the S3 store with the configured bucket, prefix and cache', () => {
  const store = createBlobStore(
    config({
      backend: 's3',
      cacheDir: '/tmp/bosun-cache-x',
      s3: {
        bucket: 'pkgs',
        prefix: 'p', // a folder: the '/' is added
        endpoint: 'http://127.0.0.1:9',
        accessKeyId: 'a',
        secretAccessKey: 'b',
      },
    }),
  );
  assert.ok(store instanceof S3BlobStore);
  assert.equal(store.kind, 's3');
  assert.equal(store.bucket, 'pkgs');
  assert.equal(store.prefix, 'p/');
  assert.equal(store.cacheDir, '/tmp/bosun-cache-x/blobs');
  store.client.destroy();
});

test('createBlobStore refuses s3 without a bucket, naming blobs.s3.bucket', () => {
  assert.throws(
    () => createBlobStore(config({ backend: 's3' })),
    (err: unknown) => err instanceof ConfigError && err.message.includes('blobs.s3.bucket'),
  );
});

test('createBlobStore refuses half a credential pair', () => {
  assert.throws(
    () => createBlobStore(config({ backend: 's3', s3: { bucket: 'b', accessKeyId: 'only' } })),
    (err: unknown) => err instanceof ConfigError && err.message.includes('secretAccessKey'),
  );
});

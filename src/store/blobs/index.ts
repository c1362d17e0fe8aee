/** Builds the configured blob store: a local folder by default, S3 in cluster mode. */

import { join } from 'node:path';
import { ConfigError } from '../../config/errors.ts';
import type { Config } from '../../config/load.ts';
import type { BlobStore } from './blob-store.ts';
import { FsBlobStore } from './fs-store.ts';
import { S3BlobStore } from './s3-store.ts';

export function createBlobStore(config: Config): BlobStore {
  const blobs = config.blobs;
  if (blobs.backend === 'fs') return new FsBlobStore(blobs.dir);
  const s3 = blobs.s3;
  if (!s3.bucket) {
    throw new ConfigError(
      "blobs.s3.bucket: required when blobs.backend is 's3' (the bucket holding the blobs)",
    );
  }
  if (Boolean(s3.accessKeyId) !== Boolean(s3.secretAccessKey)) {
    throw new ConfigError('blobs.s3.accessKeyId and blobs.s3.secretAccessKey: give both or neither');
  }
  return new S3BlobStore({
    bucket: s3.bucket,
    prefix: s3.prefix,
    region: s3.region,
    endpoint: s3.endpoint || undefined,
    forcePathStyle: s3.forcePathStyle,
    // Neither given: the SDK's default chain (environment, shared profile, instance role).
    credentials: s3.accessKeyId
      ? { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey }
      : undefined,
    // Its own folder: blobs.cacheDir also holds other caches (extracted packages).
    cacheDir: join(blobs.cacheDir, 'blobs'),
  });
}

export { BlobNotFoundError, type BlobStore, BlobTooLargeError } from './blob-store.ts';
export { FsBlobStore } from './fs-store.ts';
export { InvalidBlobKeyError } from './key.ts';
export { S3BlobStore, type S3BlobStoreOptions } from './s3-store.ts';
export { type SweepOptions, sweepBlobs } from './sweep.ts';

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
  return createS3BlobStore(config);
}

/** The S3 store of `blobs.s3`, whatever `blobs.backend` says (the migration to S3 needs both). */
export function createS3BlobStore(config: Config): S3BlobStore {
  const blobs = config.blobs;
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
    connectTimeoutMs: s3.connectTimeoutMs,
    idleTimeoutMs: s3.idleTimeoutMs,
    maxAttempts: s3.maxAttempts,
    // Its own folder: blobs.cacheDir also holds other caches (extracted packages).
    cacheDir: join(blobs.cacheDir, 'blobs'),
  });
}

export {
  BlobNotFoundError,
  type BlobStore,
  BlobStoreUnavailableError,
  BlobTooLargeError,
} from './blob-store.ts';
export { FsBlobStore } from './fs-store.ts';
export { InvalidBlobKeyError } from './key.ts';
export { S3BlobStore, type S3BlobStoreOptions } from './s3-store.ts';
export { type SweepOptions, sweepBlobs } from './sweep.ts';

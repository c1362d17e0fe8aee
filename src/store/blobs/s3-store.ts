/**
 * The S3 blob store (cluster mode): every replica reads the same objects under `prefix` in one
 * bucket. Puts stream through the meter into a multipart Upload, which is aborted (no object
 * appears) when the meter or the source fails. Readers that need a file get a node-local cache
 * copy under `cacheDir`, rebuilt on demand: the cache is never the only copy.
 */

import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as ClientS3 from '@aws-sdk/client-s3';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type * as LibStorage from '@aws-sdk/lib-storage';
import {
  BlobNotFoundError,
  type BlobStore,
  BlobTooLargeError,
  type ByteRange,
  type PutOptions,
  type PutResult,
} from './blob-store.ts';
import { checkKey, checkPrefix } from './key.ts';
import { PutMeter } from './meter.ts';
import { checkRange, trimToRange } from './range.ts';
import { isNotFound, isStoreError, statusOf, unavailable } from './s3-errors.ts';
import { removeStaleTempFiles, tempPathFor } from './temp-files.ts';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Prepended to every key inside the bucket (e.g. 'bosun/'). */
  prefix?: string;
  region?: string;
  /** S3-compatible endpoint URL; undefined = AWS. */
  endpoint?: string;
  forcePathStyle?: boolean;
  /** Undefined: the SDK's default chain (environment, profile, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Folder of the local copies handed out by localFile. */
  cacheDir: string;
  /** Multipart part size in bytes (≥ 5 MiB); memory use is about partSize × queueSize. */
  partSize?: number;
  queueSize?: number;
  /** A TCP connection not made within this fails the attempt. */
  connectTimeoutMs?: number;
  /** A request with no byte sent or received for this long fails the attempt (a hung store). */
  idleTimeoutMs?: number;
  /** Attempts per request, the first included (the SDK backs off between them). */
  maxAttempts?: number;
  /** A ready client (shared, or instrumented by tests); the connection options are then ignored. */
  client?: S3Client;
}

/**
 * The AWS SDK is loaded on first use: loading it costs every server about 15 MiB and 150 ms at
 * start, and most run on the filesystem store. (Its packages are CommonJS: `import` and
 * `require` give the same module.)
 */
const load = createRequire(import.meta.url);
let clientS3: typeof ClientS3 | undefined;
let libStorage: typeof LibStorage | undefined;
const s3 = (): typeof ClientS3 => {
  clientS3 ??= load('@aws-sdk/client-s3') as typeof ClientS3;
  return clientS3;
};
const storage = (): typeof LibStorage => {
  libStorage ??= load('@aws-sdk/lib-storage') as typeof LibStorage;
  return libStorage;
};

/**
 * The SDK's own defaults wait forever: no connection timeout, no idle timeout, and its request
 * timeout only logs a warning. A store that stops answering would hold an upload (and its
 * package's lease) open for good; with these, a request fails within about
 * maxAttempts × idleTimeoutMs plus the back-off.
 */
export const S3_TIMEOUT_DEFAULTS = { connectTimeoutMs: 5_000, idleTimeoutMs: 30_000, maxAttempts: 3 };

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly bucket: string;
  readonly prefix: string;
  readonly cacheDir: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  /** localFile downloads in progress, so concurrent callers share one. */
  private readonly downloads = new Map<string, Promise<string>>();

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = folderPrefix(options.prefix ?? '');
    this.cacheDir = resolve(options.cacheDir);
    this.partSize = options.partSize ?? 8 * 2 ** 20;
    this.queueSize = options.queueSize ?? 4;
    this.#client = options.client;
    this.#clientConfig = {
      region: options.region || 'us-east-1',
      endpoint: options.endpoint || undefined,
      forcePathStyle: options.forcePathStyle ?? true,
      credentials: options.credentials,
      maxAttempts: options.maxAttempts ?? S3_TIMEOUT_DEFAULTS.maxAttempts,
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? S3_TIMEOUT_DEFAULTS.connectTimeoutMs,
        socketTimeout: options.idleTimeoutMs ?? S3_TIMEOUT_DEFAULTS.idleTimeoutMs,
      },
      // S3-compatible stores (MinIO, Ceph, s3rver) do not all take the SDK's default CRC
      // trailers; our own digests are computed while streaming anyway.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
  }

  #client: S3Client | undefined;
  readonly #clientConfig: S3ClientConfig;

  /** The S3 client (made on first use). */
  get client(): S3Client {
    this.#client ??= new (s3().S3Client)(this.#clientConfig);
    return this.#client;
  }

  private objectKey(key: string): string {
    return this.prefix + checkKey(key);
  }

  private cachePath(key: string): string {
    return join(this.cacheDir, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<PutResult> {
    const Key = this.objectKey(key);
    const meter = new PutMeter(options);
    // What stopped the stream — the source's own error, or the meter's limit — is the one to
    // report; the meter is also destroyed (AbortError) by an upload that stopped reading it
    // because the store failed, and that is a consequence, not a cause.
    let failure: unknown;
    meter.on('error', (err) => {
      if (err instanceof BlobTooLargeError) failure ??= err;
    });
    // Piped, not pipelined: when the store fails, the source is left to its owner rather than
    // destroyed with the upload (destroying an HTTP request body resets its socket, and the
    // client would never read the 503 that says why).
    body.once('error', (err) => {
      failure ??= err;
      meter.destroy(err);
    });
    body.pipe(meter);
    const upload = new (storage().Upload)({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: meter },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    // Both a single PutObject and a multipart completion need the whole stream, so a failure
    // before its end means no object was written.
    try {
      await upload.done();
    } catch (err) {
      body.unpipe(meter);
      meter.destroy();
      // A failed request to the store carries the SDK's $metadata.
      throw failure ?? (isStoreError(err) ? unavailable(`upload of ${key}`, err) : err);
    }
    return meter.result();
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const Key = this.objectKey(key);
    if (range) checkRange(range);
    try {
      const response = await this.client.send(
        new (s3().GetObjectCommand)({
          Bucket: this.bucket,
          Key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      const body = response.Body as Readable;
      return range ? trimToRange(body, range, response.ContentRange) : body;
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      // A range starting past the end: empty, as the fs store's read stream gives.
      if (range && statusOf(err) === 416) return Readable.from([]);
      throw unavailable(`GetObject of ${key}`, err);
    }
  }

  async stat(key: string): Promise<{ size: number; modified: Date } | undefined> {
    const Key = this.objectKey(key);
    try {
      const head = await this.client.send(new (s3().HeadObjectCommand)({ Bucket: this.bucket, Key }));
      return { size: head.ContentLength ?? 0, modified: head.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw unavailable(`HeadObject of ${key}`, err);
    }
  }

  async delete(key: string): Promise<void> {
    const Key = this.objectKey(key);
    try {
      await this.client.send(new (s3().DeleteObjectCommand)({ Bucket: this.bucket, Key }));
    } catch (err) {
      // S3 answers 204 for a key that is not there; a 404 here is the bucket's, or a
      // compatible store's way of saying the same.
      if (!isNotFound(err)) throw unavailable(`DeleteObject of ${key}`, err);
    }
    await rm(this.cachePath(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    checkPrefix(prefix);
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client
        .send(
          new (s3().ListObjectsV2Command)({
            Bucket: this.bucket,
            Prefix: this.prefix + prefix,
            ContinuationToken,
          }),
        )
        .catch((err: unknown) => {
          throw unavailable(`ListObjectsV2 of ${prefix || '(all)'}`, err);
        });
      for (const object of page.Contents ?? []) {
        if (object.Key?.startsWith(this.prefix)) yield object.Key.slice(this.prefix.length);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async localFile(key: string): Promise<string> {
    const path = this.cachePath(key);
    const running = this.downloads.get(path);
    if (running) return running;
    const download = this.refreshCache(key, path).finally(() => this.downloads.delete(path));
    this.downloads.set(path, download);
    return download;
  }

  /**
   * The cache copy is current when its size and mtime match the object's size and
   * LastModified (the mtime is set from LastModified after each download), so an overwritten
   * object is fetched again even when its size did not change.
   */
  private async refreshCache(key: string, path: string): Promise<string> {
    const object = await this.stat(key);
    if (!object) {
      await rm(path, { force: true });
      throw new BlobNotFoundError(key);
    }
    const cached = await stat(path).catch(() => undefined);
    if (cached?.isFile() && cached.size === object.size && sameSecond(cached.mtime, object.modified)) {
      return path;
    }
    await this.download(key, path);
    return path;
  }

  private async download(key: string, path: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    const temp = tempPathFor(path);
    try {
      const response = await this.client.send(
        new (s3().GetObjectCommand)({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      await pipeline(response.Body as Readable, createWriteStream(temp, { flags: 'wx' }));
      const written = await stat(temp);
      if (response.ContentLength !== undefined && written.size !== response.ContentLength) {
        throw new Error(
          `download of blob ${key} was cut short: ${written.size} of ${response.ContentLength} bytes`,
        );
      }
      const modified = response.LastModified ?? new Date();
      await utimes(temp, modified, modified);
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      // A local file's error (disk full: it names its path) is no store outage.
      if ((err as NodeJS.ErrnoException).path !== undefined) throw err;
      throw unavailable(`GetObject of ${key} into the cache`, err);
    }
  }

  /**
   * Drops cache files of blobs deleted or replaced since (another replica deleted the package,
   * say). Each node runs it for its own cache; returns the keys dropped.
   */
  async pruneCache(): Promise<string[]> {
    const dropped: string[] = [];
    for (const key of await cachedKeys(this.cacheDir)) {
      const path = this.cachePath(key);
      if (this.downloads.has(path)) continue;
      const [object, cached] = await Promise.all([this.stat(key), stat(path).catch(() => undefined)]);
      if (!cached) continue;
      if (object && cached.size === object.size && sameSecond(cached.mtime, object.modified)) continue;
      await rm(path, { force: true });
      dropped.push(key);
    }
    return dropped;
  }

  /**
   * Cache downloads that died with their process. (Multipart uploads abandoned by a crash are
   * the bucket's business: give it an AbortIncompleteMultipartUpload lifecycle rule.)
   */
  sweepTemporaries(olderThanMs: number): Promise<string[]> {
    return removeStaleTempFiles(this.cacheDir, olderThanMs);
  }
}

/** Last-Modified has a one-second resolution over HTTP. */
const sameSecond = (a: Date, b: Date) => Math.floor(a.getTime() / 1000) === Math.floor(b.getTime() / 1000);

/** A configured prefix is a folder: 'bosun' and '/bosun/' both mean 'bosun/'. */
function folderPrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+/, '');
  return trimmed === '' || trimmed.endsWith('/') ? trimmed : `${trimmed}/`;
}

/** Keys of the files in the cache folder (temp files and anything not a key skipped). */
async function cachedKeys(cacheDir: string): Promise<string[]> {
  const entries = await readdir(cacheDir, { recursive: true, withFileTypes: true }).catch(() => []);
  const keys: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const key = relative(cacheDir, join(entry.parentPath, entry.name)).split(sep).join('/');
    try {
      keys.push(checkKey(key));
    } catch {
      // not one of ours
    }
  }
  return keys;
}

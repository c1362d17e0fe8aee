/**
 * Where package zips (and later other large objects) live: a local folder on a single node, an
 * S3-compatible store in a cluster so that every replica reads the same bytes. Writes are
 * atomic (a blob appears only when complete) and hashed while streaming; readers that need
 * random access (zip) get a local file — the blob itself, or a cache rebuilt from the store.
 */
import type { Readable } from 'node:stream';
import type { HashAlgorithm } from '../../sol/hash-algorithms.ts';
import { ApiError } from '../../sol/problem.ts';
import type { ScannedZip, ZipScanOptions } from '../../zip/zip-stream-scan.ts';

export interface PutOptions {
  /** Refuse (BlobTooLargeError) and write nothing past this many bytes. */
  maxBytes: number;
  /** Digests computed while writing. */
  digests?: HashAlgorithm[];
  /** The content is a zip: digest its stored entries while writing (zip-stream-scan.ts). */
  zipScan?: ZipScanOptions;
  /** The size announced by the source, if any: large contents are hashed on other threads. */
  sizeHint?: number;
}

export interface PutResult {
  size: number;
  /** Lowercase hex, per requested algorithm. */
  digests: Partial<Record<HashAlgorithm, string>>;
  /** With `zipScan`: what the scan found. */
  zipScan?: ScannedZip;
}

/** Inclusive byte range, as in HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface BlobStore {
  readonly kind: 'fs' | 's3';
  put(key: string, body: Readable, options: PutOptions): Promise<PutResult>;
  /** The blob, or a range of it; BlobNotFoundError when absent. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number; modified: Date } | undefined>;
  /** Idempotent: deleting what is not there is not an error. Also drops local caches of it. */
  delete(key: string): Promise<void>;
  /** Keys under a prefix (the periodic sweep). */
  list(prefix: string): AsyncIterable<string>;
  /** A local file with the blob's bytes (fs: the blob itself; s3: a cache under blobs.cacheDir). */
  localFile(key: string): Promise<string>;
}

export class BlobTooLargeError extends Error {
  override name = 'BlobTooLargeError';
  readonly limit: number;
  constructor(limit: number) {
    super(`the content is larger than the ${limit}-byte limit`);
    this.limit = limit;
  }
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  readonly key: string;
  constructor(key: string) {
    super(`no blob ${key}`);
    this.key = key;
  }
}

/**
 * The object store did not do what was asked: it could not be reached, did not answer in time,
 * or answered with an error other than "not found". An ApiError (503 with Retry-After) so that
 * every route that touches a blob answers with a clear ProblemDetails rather than a bare 500;
 * the SDK's own error, with the store's address, stays in `cause` for the log only.
 */
export class BlobStoreUnavailableError extends ApiError {
  override name = 'BlobStoreUnavailableError';
  readonly operation: string;
  constructor(operation: string, reason: string, cause: unknown) {
    super(
      503,
      `The blob store is unavailable: S3 ${operation} failed (${reason}). Try again once it is back.`,
      {
        headers: { 'Retry-After': '30' },
      },
    );
    this.operation = operation;
    this.cause = cause;
  }
}

/**
 * The Transform every put streams through: counts bytes, feeds each requested hash, and fails
 * with BlobTooLargeError the moment the count passes the limit (before the extra bytes are
 * passed on), so a store never writes more than maxBytes.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import type { HashAlgorithm } from '../../vnfd/csar/csar-info.ts';
import { NODE_HASH_NAMES } from '../../vnfd/csar/digest-range.ts';
import { BlobTooLargeError, type PutResult } from './blob-store.ts';

export class PutMeter extends Transform {
  // Not named `size` or `length`: lib-storage would take that for the body's total length.
  private written = 0;
  private readonly maxBytes: number;
  private readonly hashes: [HashAlgorithm, Hash][];

  constructor(maxBytes: number, algorithms: HashAlgorithm[] = []) {
    super();
    this.maxBytes = maxBytes;
    this.hashes = [...new Set(algorithms)].map((a) => [a, createHash(NODE_HASH_NAMES[a])]);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const next = this.written + chunk.length;
    if (next > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes));
      return;
    }
    this.written = next;
    for (const [, hash] of this.hashes) hash.update(chunk);
    callback(null, chunk);
  }

  /** Only once the stream has ended: the digests consume the hashes. */
  result(): PutResult {
    const digests: PutResult['digests'] = {};
    for (const [algorithm, hash] of this.hashes) digests[algorithm] = hash.digest('hex');
    return { size: this.written, digests };
  }
}

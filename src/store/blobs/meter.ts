/**
 * The Transform every put streams through: counts bytes, feeds the hash plan (on the event loop
 * or hashing threads, see stream-hasher.ts), and fails with BlobTooLargeError the moment the
 * count passes the limit (before the extra bytes are passed on), so a store never writes more
 * than maxBytes. The stream ends only once every digest is known, so a put that succeeds has
 * its digests. Every few MiB it frees the chunks already written (see young-garbage.ts).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { BlobTooLargeError, type PutOptions, type PutResult } from './blob-store.ts';
import type { HashResults } from './hash-jobs.ts';
import { createStreamHasher, type StreamHasher } from './stream-hasher.ts';
import { collectYoungGarbage } from './young-garbage.ts';

/**
 * Every 2 MiB: a forced young collection that falls while V8 is incrementally marking
 * finalises a full mark-compact, and with chunks piling up for 8 MiB V8 kept starting such
 * marking (about 30–70 mark-compacts per GiB against about 10 at 2 MiB; server CPU for 1 GiB
 * 3.4–3.5 s against 3.4–4.9 s).
 */
const COLLECT_EVERY = 2 * 2 ** 20;
/**
 * Buffered on each side. With the 16 KiB default every 64 KiB socket chunk stops the body
 * until the write completes: one write per chunk, and the socket paused and resumed each time
 * (that doubled the CPU of a large upload). A MiB lets chunks flow and merge into one writev.
 */
export const PUT_HIGH_WATER_MARK = 2 ** 20;

export class PutMeter extends Transform {
  // Not named `size` or `length`: lib-storage would take that for the body's total length.
  private written = 0;
  private sinceCollect = 0;
  private readonly maxBytes: number;
  private readonly hasher: StreamHasher;
  private hashes: HashResults | undefined;
  private finishing = false;

  constructor(options: Pick<PutOptions, 'maxBytes' | 'digests' | 'zipScan' | 'sizeHint'>) {
    super({ highWaterMark: PUT_HIGH_WATER_MARK });
    this.maxBytes = options.maxBytes;
    this.hasher = createStreamHasher(
      { digests: options.digests, zipScan: options.zipScan },
      { sizeHint: options.sizeHint },
    );
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const next = this.written + chunk.length;
    if (next > this.maxBytes) {
      callback(new BlobTooLargeError(this.maxBytes));
      return;
    }
    this.written = next;
    this.sinceCollect += chunk.length;
    if (this.sinceCollect >= COLLECT_EVERY) {
      this.sinceCollect = 0;
      collectYoungGarbage();
    }
    let waiting: Promise<void> | undefined;
    try {
      waiting = this.hasher.update(chunk);
    } catch (err) {
      callback(err as Error);
      return;
    }
    if (waiting) waiting.then(() => callback(null, chunk), callback);
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.finishing = true;
    this.hasher.finish().then(
      (hashes) => {
        this.hashes = hashes;
        callback();
      },
      (err: Error) => callback(err),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.finishing) this.hasher.abort();
    callback(error);
  }

  /** Only once the stream has ended. */
  result(): PutResult {
    const hashes = this.hashes ?? { digests: {} };
    return {
      size: this.written,
      digests: hashes.digests,
      ...(hashes.zipScan ? { zipScan: hashes.zipScan } : {}),
    };
  }
}

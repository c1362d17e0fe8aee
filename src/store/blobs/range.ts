/**
 * Byte ranges: the shared check of an inclusive range (the HTTP layer validates it against the
 * size), and the trimming of a response that covers more than was asked — HTTP lets a server
 * ignore Range (200 with the whole body), and some S3-compatible servers mis-serve edge ranges.
 */
import { Readable } from 'node:stream';
import type { ByteRange } from './blob-store.ts';

export function checkRange(range: ByteRange): ByteRange {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`invalid byte range ${start}-${end}`);
  }
  return range;
}

/**
 * `body` trimmed to `range`, given the Content-Range it came with (undefined: the whole
 * object from byte 0). Passed through untouched when it already is exactly that range.
 */
export function trimToRange(body: Readable, range: ByteRange, contentRange: string | undefined): Readable {
  const served = /^bytes (\d+)-(\d+)\//.exec(contentRange ?? '');
  const first = served ? Number(served[1]) : 0;
  const last = served ? Number(served[2]) : Number.POSITIVE_INFINITY;
  if (first === range.start && last <= range.end) return body;
  if (first > range.start) {
    body.destroy();
    throw new Error(`the store served bytes ${first}-${last} for the range ${range.start}-${range.end}`);
  }
  return Readable.from(slice(body, range.start - first, range.end - range.start + 1), { objectMode: false });
}

async function* slice(body: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  let toSkip = skip;
  let left = length;
  // Leaving the loop early destroys `body`.
  for await (const data of body) {
    let chunk = data as Buffer;
    if (toSkip >= chunk.length) {
      toSkip -= chunk.length;
      continue;
    }
    chunk = chunk.subarray(toSkip);
    toSkip = 0;
    if (chunk.length >= left) {
      yield chunk.subarray(0, left);
      return;
    }
    left -= chunk.length;
    yield chunk;
  }
}

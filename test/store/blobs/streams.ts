/** Test bodies: deterministic pseudo-random bytes streamed in chunks, and a failing source. */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';

/** `size` bytes from a seeded generator, in chunks of at most 64 KiB, never all in memory. */
export function patternStream(size: number, seed = 1): Readable {
  let state = seed >>> 0 || 1;
  let left = size;
  return new Readable({
    read() {
      if (left === 0) {
        this.push(null);
        return;
      }
      const chunk = Buffer.allocUnsafe(Math.min(left, 65536));
      for (let i = 0; i < chunk.length; i++) {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        chunk[i] = state & 0xff;
      }
      left -= chunk.length;
      this.push(chunk);
    },
  });
}

/** Digests and length of a stream, consumed. */
export async function digestOf(stream: Readable): Promise<{ size: number; sha256: string; sha512: string }> {
  const sha256 = createHash('sha256');
  const sha512 = createHash('sha512');
  let size = 0;
  for await (const chunk of stream) {
    sha256.update(chunk);
    sha512.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: sha256.digest('hex'), sha512: sha512.digest('hex') };
}

/** Emits `before` bytes, then fails with `error`. */
export function failingStream(before: number, error: Error): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(Buffer.alloc(before, 7));
        return;
      }
      this.destroy(error);
    },
  });
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Digests a byte range of a file through one reused buffer. Streams allocate a new buffer per
 * chunk, and a GiB image then leaves tens of MiB of dead buffers waiting for the garbage
 * collector; reading into the same buffer keeps the verifier's memory flat.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { type HashAlgorithm, NODE_HASH_NAMES } from '../../sol/hash-algorithms.ts';

const CHUNK = 2 ** 20;

export interface RangeDigest {
  /** Lowercase hex. */
  digest: string;
  /** CRC-32 of the range (zip entries are checked against it). */
  crc32: number;
  /** Bytes actually read (less than asked when the file is shorter). */
  read: number;
}

export async function digestRange(
  path: string,
  start: number,
  length: number,
  algorithm: HashAlgorithm,
): Promise<RangeDigest> {
  const hash = createHash(NODE_HASH_NAMES[algorithm]);
  const buffer = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(length, 1)));
  const handle = await open(path, 'r');
  let crc = 0;
  let done = 0;
  try {
    while (done < length) {
      const { bytesRead } = await handle.read(
        buffer,
        0,
        Math.min(buffer.length, length - done),
        start + done,
      );
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      hash.update(chunk);
      crc = crc32(chunk, crc);
      done += bytesRead;
    }
  } finally {
    await handle.close();
  }
  return { digest: hash.digest('hex'), crc32: crc >>> 0, read: done };
}

/**
 * Digests for manifest and TOSCA.meta hash checks. Always streaming: software images can be
 * many GiB and are never held in memory.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type HashAlgorithm, NODE_HASH_NAMES } from '../../sol/hash-algorithms.ts';
import type { PackageFiles } from './package-files.ts';

/**
 * SOL004 writes `SHA-256` but vendors also write `sha-256`, `SHA256`, `sha256`; accept any case,
 * with or without the dash. Anything else (MD5, SHA-1, SHA3…) is not a SOL004 algorithm.
 */
export function normaliseAlgorithm(written: string): HashAlgorithm | undefined {
  const match = /^sha-?(224|256|384|512)$/i.exec(written.trim());
  return match ? (`sha-${match[1]}` as HashAlgorithm) : undefined;
}

/** Lowercase hex digest of everything the stream yields; rejects when the stream errors. */
export async function hashStream(stream: Readable, algorithm: HashAlgorithm): Promise<string> {
  const hash = createHash(NODE_HASH_NAMES[algorithm]);
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Digest of a package file; a damaged entry rejects with the reader's PackageReadError. */
export async function hashFile(files: PackageFiles, name: string, algorithm: HashAlgorithm): Promise<string> {
  return files.digest(name, algorithm);
}

/**
 * The files of a package, however they are stored (a zip read lazily, or a directory being
 * linted). Everything above the CSAR reader reads package content through this interface.
 */
import type { Readable } from 'node:stream';
import type { HashAlgorithm } from '../../sol/hash-algorithms.ts';

export interface PackageFiles {
  /** Regular files, '/'-separated, without a leading './', sorted. No directories. */
  readonly names: readonly string[];
  has(name: string): boolean;
  /** Uncompressed size in bytes. */
  size(name: string): number;
  /**
   * The file as UTF-8 text. Refuses (throws PackageReadError) files larger than the text limit:
   * descriptors, meta files and manifests are small, images are streamed.
   */
  readText(name: string): Promise<string>;
  /** The file as a stream (extraction, uploads). CRC is checked at the end. */
  openStream(name: string): Promise<Readable>;
  /** Lowercase hex digest of the file, in constant memory (images can be many GiB). */
  digest(name: string, algorithm: HashAlgorithm): Promise<string>;
  close(): Promise<void>;
}

/** A file cannot be read (missing, too large for text, damaged). */
export class PackageReadError extends Error {
  override name = 'PackageReadError';
  readonly code: string;
  readonly file: string;
  constructor(code: string, file: string, message: string) {
    super(message);
    this.code = code;
    this.file = file;
  }
}

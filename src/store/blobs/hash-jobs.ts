/**
 * What a put computes from the bytes it streams: whole-content digests (the package checksum)
 * and, for zips, the per-entry digests of the streaming scan. The same code runs on the event
 * loop; large puts run the same work on a hashing thread (hash-thread.ts).
 */
import { createHash, type Hash } from 'node:crypto';
import { type HashAlgorithm, NODE_HASH_NAMES } from '../../sol/hash-algorithms.ts';
import { type ScannedZip, type ZipScanOptions, ZipStreamScanner } from '../../zip/zip-stream-scan.ts';

export interface HashPlan {
  /** Digests of the whole content. */
  digests?: HashAlgorithm[];
  /** Digests of the stored entries of a zip, scanned while it streams. */
  zipScan?: ZipScanOptions;
}

export interface HashResults {
  /** Lowercase hex, per requested algorithm. */
  digests: Partial<Record<HashAlgorithm, string>>;
  zipScan?: ScannedZip;
}

export class HashJobs {
  readonly #hashes: [HashAlgorithm, Hash][];
  readonly #scanner: ZipStreamScanner | undefined;

  constructor(plan: HashPlan) {
    this.#hashes = [...new Set(plan.digests ?? [])].map((a) => [a, createHash(NODE_HASH_NAMES[a])]);
    this.#scanner = plan.zipScan ? new ZipStreamScanner(plan.zipScan) : undefined;
  }

  update(bytes: Buffer): void {
    for (const [, hash] of this.#hashes) hash.update(bytes);
    this.#scanner?.update(bytes);
  }

  /** Once, at the end of the content. */
  results(): HashResults {
    const digests: HashResults['digests'] = {};
    for (const [algorithm, hash] of this.#hashes) digests[algorithm] = hash.digest('hex');
    return this.#scanner ? { digests, zipScan: this.#scanner.result() } : { digests };
  }
}

/**
 * Digests of a zip's entries computed while the zip streams by (an upload), so that onboarding
 * does not read a multi-GiB image a second time to check its manifest digest.
 *
 * The scanner follows the local file headers in order: each header, the entry's data, its data
 * descriptor, the next header… until the central directory (the scan is then `complete`) or
 * anything it does not expect, where it stops: what it recorded so far stays valid, the rest is
 * simply not known. Stored entries (images, as `package build` writes them) are hashed and their
 * CRC-32 computed; deflated ones are skipped (they are small text files in practice, and reading
 * them again costs nothing).
 *
 * An entry whose header sets bit 3 (sizes in a data descriptor after the data, as yazl and
 * Java write) has no length up front: its end is the first data descriptor signature whose
 * sizes equal the bytes seen since the data began (and, stored, whose CRC-32 equals theirs),
 * followed by the next header's signature.
 *
 * The result is a hint, never the truth: the zip reader uses a record only when it agrees with
 * the central directory on the entry's header offset, data start, sizes, method and CRC-32 —
 * otherwise (a local header that disagrees with the central directory, an entry the scan never
 * saw) it reads the entry as it always did.
 */
import { createHash, type Hash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { HashAlgorithm } from '../sol/hash-algorithms.ts';

export interface ScannedEntry {
  /** Offset of the local file header (the central directory's relativeOffsetOfLocalHeader). */
  offset: number;
  /** Offset of the entry's first data byte. */
  dataStart: number;
  /** Compression method (only stored, 0, entries are recorded). */
  method: number;
  compressedSize: number;
  size: number;
  /** CRC-32 of the bytes actually seen (unsigned). */
  crc32: number;
  /** Lowercase hex per algorithm. */
  digests: Partial<Record<HashAlgorithm, string>>;
}

export interface ScannedZip {
  /** The scan reached the central directory (every entry before it was seen). */
  complete: boolean;
  entries: ScannedEntry[];
}

export interface ZipScanOptions {
  /** Digests computed for stored entries; default sha-256 (what manifests nearly always use). */
  algorithms?: HashAlgorithm[];
  /** Entries recorded at most (later stored entries are not hashed); default 1000. */
  maxRecorded?: number;
  /** Local headers followed at most; default 100,000. */
  maxEntries?: number;
}

interface Current {
  offset: number;
  dataStart: number;
  method: number;
  /** Known length of the data (undefined: bit 3, found by the descriptor). */
  length: number | undefined;
  seen: number;
  crc: number;
  hashes: [HashAlgorithm, Hash][] | undefined;
}

/** What the scanner needs from Node (passed in: the scanner also runs from source text). */
export interface ScannerLib {
  createHash: (algorithm: string) => Hash;
  crc32: (data: Uint8Array, value?: number) => number;
}

/**
 * Defines the scanner class over `lib`. Self-contained — nothing outside its body but its
 * argument and globals — because hashing threads run it from its source text (see
 * src/store/blobs/hash-thread.ts).
 */
export function defineZipStreamScanner(lib: ScannerLib) {
  const LOCAL_HEADER = 0x04034b50;
  const CENTRAL_HEADER = 0x02014b50;
  const END_OF_CENTRAL = 0x06054b50;
  const ZIP64_END = 0x06064b50;
  const DESCRIPTOR_SIGNATURE = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
  const FIXED_HEADER = 30;
  /** Descriptor with signature and 64-bit sizes (24) plus the next signature (4). */
  const DESCRIPTOR_LOOKAHEAD = 28;
  const U32_MAX = 0xffffffff;

  /** Is `sig` something that may follow an entry (another entry, or the archive's directory)? */
  const followsEntry = (sig: number) =>
    sig === LOCAL_HEADER || sig === CENTRAL_HEADER || sig === END_OF_CENTRAL || sig === ZIP64_END;

  /** The ZIP64 extended information field (0x0001) of a local header's extra data. */
  function zip64Sizes(
    extra: Buffer,
    wanted: { size: boolean; compressedSize: boolean },
  ): { size?: number; compressedSize?: number } | undefined {
    let at = 0;
    while (at + 4 <= extra.length) {
      const id = extra.readUInt16LE(at);
      const length = extra.readUInt16LE(at + 2);
      const body = extra.subarray(at + 4, at + 4 + length);
      if (id === 0x0001) {
        // The local header's ZIP64 field holds both sizes, uncompressed first.
        let p = 0;
        const out: { size?: number; compressedSize?: number } = {};
        if (wanted.size) {
          if (p + 8 > body.length) return undefined;
          out.size = Number(body.readBigUInt64LE(p));
          p += 8;
        }
        if (wanted.compressedSize) {
          if (p + 8 > body.length) return undefined;
          out.compressedSize = Number(body.readBigUInt64LE(p));
        }
        return out;
      }
      at += 4 + length;
    }
    return undefined;
  }

  return class ZipStreamScanner {
    readonly #algorithms: HashAlgorithm[];
    readonly #maxRecorded: number;
    readonly #maxEntries: number;
    readonly #entries: ScannedEntry[] = [];
    /** Bytes of the stream consumed so far (the offset of `#pending[0]`). */
    #position = 0;
    /** Bytes kept (copied) from the previous chunk until more arrive: a partial header or descriptor. */
    #pending: Buffer | undefined;
    #state: 'header' | 'data' | 'skip' | 'done' | 'stopped' = 'header';
    #current: Current | undefined;
    /** Bytes to pass over (a descriptor) before the next header. */
    #skip = 0;
    #headers = 0;

    constructor(options: ZipScanOptions = {}) {
      this.#algorithms = [...new Set<HashAlgorithm>(options.algorithms ?? ['sha-256'])];
      this.#maxRecorded = options.maxRecorded ?? 1000;
      this.#maxEntries = options.maxEntries ?? 100_000;
    }

    /** Feeds the next bytes of the zip. The chunk is not kept (what must wait is copied). */
    update(chunk: Buffer): void {
      if (this.#ended() || chunk.length === 0) return;
      let buf = chunk;
      if (this.#pending) {
        buf = Buffer.concat([this.#pending, chunk]);
        this.#pending = undefined;
      }
      let at = 0;
      while (at < buf.length) {
        const used = this.#step(buf, at);
        if (used < 0) {
          // Needs more bytes than there are: keep the rest for the next chunk.
          this.#pending = Buffer.from(buf.subarray(at));
          return;
        }
        at += used;
        this.#position += used;
        if (this.#ended()) return;
      }
    }

    #ended(): boolean {
      return this.#state === 'done' || this.#state === 'stopped';
    }

    /** What was found; the stream has ended (an entry cut short is not recorded). */
    result(): ScannedZip {
      return { complete: this.#state === 'done', entries: this.#entries };
    }

    /** Consumes bytes of `buf` from `at`; returns how many, or -1 when it needs more first. */
    #step(buf: Buffer, at: number): number {
      const available = buf.length - at;
      switch (this.#state) {
        case 'skip': {
          const n = Math.min(this.#skip, available);
          this.#skip -= n;
          if (this.#skip === 0) this.#state = 'header';
          return n;
        }
        case 'header':
          return this.#header(buf, at, available);
        case 'data':
          return this.#data(buf, at, available);
        default:
          return available;
      }
    }

    #header(buf: Buffer, at: number, available: number): number {
      if (available < 4) return -1;
      const sig = buf.readUInt32LE(at);
      if (sig !== LOCAL_HEADER) {
        this.#state = followsEntry(sig) ? 'done' : 'stopped';
        return 0;
      }
      if (++this.#headers > this.#maxEntries) {
        this.#state = 'stopped';
        return 0;
      }
      if (available < FIXED_HEADER) return -1;
      const flags = buf.readUInt16LE(at + 6);
      const method = buf.readUInt16LE(at + 8);
      let compressedSize = buf.readUInt32LE(at + 18);
      let size = buf.readUInt32LE(at + 22);
      const nameLength = buf.readUInt16LE(at + 26);
      const extraLength = buf.readUInt16LE(at + 28);
      const headerLength = FIXED_HEADER + nameLength + extraLength;
      if (available < headerLength) return -1;
      const deferred = (flags & 0x08) !== 0;
      if (!deferred && (compressedSize === U32_MAX || size === U32_MAX)) {
        const sizes = zip64Sizes(buf.subarray(at + FIXED_HEADER + nameLength, at + headerLength), {
          size: size === U32_MAX,
          compressedSize: compressedSize === U32_MAX,
        });
        if (!sizes) {
          this.#state = 'stopped';
          return 0;
        }
        if (sizes.size !== undefined) size = sizes.size;
        if (sizes.compressedSize !== undefined) compressedSize = sizes.compressedSize;
      }
      // Stored and unencrypted: the bytes are the content, hash them.
      const record = method === 0 && (flags & 0x01) === 0 && this.#entries.length < this.#maxRecorded;
      if (!deferred && method === 0 && compressedSize !== size) {
        this.#state = 'stopped'; // a stored entry cannot change size: a damaged header
        return 0;
      }
      this.#current = {
        offset: this.#position,
        dataStart: this.#position + headerLength,
        method,
        length: deferred ? undefined : compressedSize,
        seen: 0,
        crc: 0,
        hashes: record
          ? this.#algorithms.map((a): [HashAlgorithm, Hash] => [a, lib.createHash(a.replace('-', ''))])
          : undefined,
      };
      this.#state = 'data';
      return headerLength;
    }

    #data(buf: Buffer, at: number, available: number): number {
      const current = this.#current as Current;
      if (current.length !== undefined) {
        const n = Math.min(current.length - current.seen, available);
        this.#feed(current, buf.subarray(at, at + n));
        if (current.seen === current.length) {
          this.#finishEntry(current);
          this.#state = 'header';
        }
        return n;
      }
      // Bit 3: look for the data descriptor that ends this entry.
      let from = at;
      for (;;) {
        const candidate = buf.indexOf(DESCRIPTOR_SIGNATURE, from);
        if (candidate < 0) {
          // A signature may straddle the chunk boundary: keep up to 3 trailing bytes back.
          let keep = 0;
          for (let k = Math.min(3, buf.length - at); k > 0; k--) {
            if (buf.subarray(buf.length - k).equals(DESCRIPTOR_SIGNATURE.subarray(0, k))) {
              keep = k;
              break;
            }
          }
          const end = buf.length - keep;
          this.#feed(current, buf.subarray(at, end));
          return end > at ? end - at : -1;
        }
        if (buf.length - candidate < DESCRIPTOR_LOOKAHEAD) {
          // Not enough bytes to judge it yet: consume up to it, judge it with the next chunk.
          this.#feed(current, buf.subarray(at, candidate));
          return candidate > at ? candidate - at : -1;
        }
        const form = this.#descriptorForm(buf, candidate, current, buf.subarray(at, candidate));
        if (form) {
          this.#feed(current, buf.subarray(at, candidate));
          this.#finishEntry(current);
          this.#skip = form;
          this.#state = 'skip';
          return candidate - at;
        }
        from = candidate + 1;
      }
    }

    /**
     * The length of the descriptor at `p` (16 or 24 bytes, with its signature) when it ends the
     * current entry: its sizes equal the bytes seen, a stored entry's CRC-32 matches, and a
     * header signature follows. 0 when `p` is just data that looks like a signature.
     */
    #descriptorForm(buf: Buffer, p: number, current: Current, before: Buffer): number {
      const length = current.seen + before.length;
      // The CRC-32 is known for the entries being hashed (stored ones): it must match too.
      if (current.hashes && buf.readUInt32LE(p + 4) !== lib.crc32(before, current.crc) >>> 0) return 0;
      const stored = current.method === 0;
      // 32-bit sizes.
      if (
        buf.readUInt32LE(p + 8) === length &&
        (!stored || buf.readUInt32LE(p + 12) === length) &&
        followsEntry(buf.readUInt32LE(p + 16))
      ) {
        return 16;
      }
      // ZIP64 sizes.
      const csize = Number(buf.readBigUInt64LE(p + 8));
      const usize = Number(buf.readBigUInt64LE(p + 16));
      if (csize === length && (!stored || usize === length) && followsEntry(buf.readUInt32LE(p + 24))) {
        return 24;
      }
      return 0;
    }

    #feed(current: Current, bytes: Buffer): void {
      if (bytes.length === 0) return;
      current.seen += bytes.length;
      if (!current.hashes) return;
      current.crc = lib.crc32(bytes, current.crc);
      for (const [, hash] of current.hashes) hash.update(bytes);
    }

    #finishEntry(current: Current): void {
      this.#current = undefined;
      if (!current.hashes) return;
      const digests: ScannedEntry['digests'] = {};
      for (const [algorithm, hash] of current.hashes) digests[algorithm] = hash.digest('hex');
      this.#entries.push({
        offset: current.offset,
        dataStart: current.dataStart,
        method: current.method,
        compressedSize: current.seen,
        size: current.seen,
        crc32: current.crc >>> 0,
        digests,
      });
    }
  };
}

export const ZipStreamScanner = defineZipStreamScanner({ createHash, crc32 });
export type ZipStreamScanner = InstanceType<typeof ZipStreamScanner>;

/**
 * The digest the scan recorded for a central-directory entry, when the scan saw exactly the
 * bytes the reader would read: same header offset, data start, method, sizes, and a CRC-32 equal
 * to the one the central directory declares. Undefined otherwise: read the entry.
 */
export function scannedDigest(
  scan: ScannedZip | undefined,
  entry: {
    offset: number;
    dataStart: number;
    method: number;
    compressedSize: number;
    size: number;
    crc32: number;
  },
  algorithm: HashAlgorithm,
): string | undefined {
  if (!scan) return undefined;
  const found = scan.entries.find((e) => e.offset === entry.offset);
  if (
    found?.method !== 0 ||
    entry.method !== 0 ||
    found.dataStart !== entry.dataStart ||
    found.compressedSize !== entry.compressedSize ||
    found.size !== entry.size ||
    found.crc32 !== entry.crc32 >>> 0
  ) {
    return undefined;
  }
  return found.digests[algorithm];
}

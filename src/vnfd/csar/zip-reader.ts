/**
 * A CSAR zip read lazily from its file: the central directory is read once into a name → entry
 * index, and entry content is streamed on demand, so a multi-GB package is never in memory.
 *
 * Every unsafe entry becomes a diagnostic instead of an exception, and the rest of the package
 * stays readable so that one pass reports everything:
 * - hidden (not in `names`): CSAR_PATH_TRAVERSAL, CSAR_ABSOLUTE_PATH, CSAR_INVALID_NAME,
 *   CSAR_SYMLINK, CSAR_ENCRYPTED_ENTRY;
 * - listed but unreadable (`readText`/`openStream` throw a PackageReadError with the same code):
 *   CSAR_DUPLICATE_ENTRY, CSAR_ENTRY_TOO_LARGE, CSAR_ZIP_BOMB, CSAR_SIZE_MISMATCH (stored
 *   entry), CSAR_UNSUPPORTED_COMPRESSION;
 * - package-wide (no `files`): CSAR_NOT_A_ZIP, CSAR_TRUNCATED, CSAR_TOO_MANY_ENTRIES,
 *   CSAR_UNREADABLE; and CSAR_TOO_LARGE (files still returned).
 * Damage found while streaming is a stream error carrying a PackageReadError: CSAR_CRC_MISMATCH,
 * CSAR_SIZE_MISMATCH, CSAR_CORRUPT_ENTRY, CSAR_TRUNCATED.
 */
import { open as openFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { HashAlgorithm } from '../../sol/hash-algorithms.ts';
import { type ScannedZip, scannedDigest } from '../../zip/zip-stream-scan.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { digestRange } from './digest-range.ts';
import type { OpenedPackage } from './directory-reader.ts';
import { hashStream } from './hash.ts';
import { type CsarLimits, DEFAULT_CSAR_LIMITS } from './limits.ts';
import { type PackageFiles, PackageReadError } from './package-files.ts';
import { decodeText } from './text.ts';
import { checkEntry } from './zip-entry-checks.ts';
import { verifiedEntryStream } from './zip-entry-stream.ts';
import { isZipMagic, ZIP_MAGIC_LENGTH } from './zip-magic.ts';

interface Indexed {
  entry: yauzl.Entry;
  /** Why its content must not be read (empty: readable). */
  problems: Diagnostic[];
}

export interface ZipOpenOptions {
  /**
   * Entry digests computed while the zip was uploaded: `digest()` returns a recorded digest
   * instead of reading the entry when the record agrees with the central directory.
   */
  zipScan?: ScannedZip;
}

export async function openZipPackage(
  path: string,
  limits: Partial<CsarLimits> = {},
  options: ZipOpenOptions = {},
): Promise<OpenedPackage> {
  const max = { ...DEFAULT_CSAR_LIMITS, ...limits };
  const opened = await openZip(path, max);
  if ('diagnostics' in opened) return opened;
  const { zip, entries } = opened;
  const { index, total, diagnostics } = indexEntries(entries, max);
  if (total > max.maxTotalBytes) {
    diagnostics.push(
      packageError(
        'CSAR_TOO_LARGE',
        `the package holds ${total} bytes uncompressed; the limit is ${max.maxTotalBytes}`,
      ),
    );
  }
  return { files: zipFiles(path, zip, index, max, options.zipScan), diagnostics };
}

/** The open zip and its central directory; a diagnostic (the zip closed) when it cannot be read. */
async function openZip(
  path: string,
  max: CsarLimits,
): Promise<{ zip: yauzl.ZipFile; entries: yauzl.Entry[] } | { diagnostics: Diagnostic[] }> {
  let zip: yauzl.ZipFile;
  try {
    // decodeStrings and validateEntrySizes are off on purpose: with them yauzl aborts the whole
    // listing at the first bad name or stored-size lie, and we want one diagnostic per bad entry
    // and the good entries still readable. Names and sizes are checked here instead.
    zip = await yauzl.openPromise(path, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: false,
    });
  } catch (err) {
    return { diagnostics: [await openFailure(path, err as NodeJS.ErrnoException)] };
  }
  // Checked before reading the directory, so a hostile entry count costs no memory.
  if (zip.entryCount > max.maxEntries) {
    zip.close();
    return {
      diagnostics: [
        packageError(
          'CSAR_TOO_MANY_ENTRIES',
          `the package has ${zip.entryCount} entries; the limit is ${max.maxEntries}`,
        ),
      ],
    };
  }
  try {
    return { zip, entries: await readCentralDirectory(zip) };
  } catch (err) {
    zip.close();
    return { diagnostics: [directoryFailure(err as Error)] };
  }
}

/**
 * The entries by package path, each with the problems that make it unreadable; hidden entries
 * (unsafe names, links, encrypted) are only reported. `total` is the listed entries' size.
 */
function indexEntries(
  entries: yauzl.Entry[],
  max: CsarLimits,
): { index: Map<string, Indexed>; total: number; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const index = new Map<string, Indexed>();
  let total = 0;
  for (const entry of entries) {
    // Backslashes are kept (strict) so that checkEntry can refuse Windows paths.
    const stored = yauzl.getFileNameLowLevel(
      entry.generalPurposeBitFlag,
      entry.fileNameRaw,
      entry.extraFields,
      true,
    );
    const verdict = checkEntry(stored, entry, max);
    if (verdict.kind === 'directory') continue;
    if (verdict.kind === 'hidden') {
      diagnostics.push(verdict.diagnostic);
      continue;
    }
    total += entry.uncompressedSize;
    diagnostics.push(...verdict.problems);
    const first = index.get(verdict.name);
    if (first) {
      // Unzip tools disagree on which copy wins, so neither copy is trusted.
      if (!first.problems.some((p) => p.code === 'CSAR_DUPLICATE_ENTRY')) {
        const duplicate = packageError(
          'CSAR_DUPLICATE_ENTRY',
          `${verdict.name} appears more than once in the archive; each path must be unique`,
          verdict.name,
        );
        diagnostics.push(duplicate);
        first.problems.unshift(duplicate);
      }
      continue;
    }
    index.set(verdict.name, { entry, problems: verdict.problems });
  }
  return { index, total, diagnostics };
}

function zipFiles(
  path: string,
  zip: yauzl.ZipFile,
  index: Map<string, Indexed>,
  max: CsarLimits,
  zipScan: ScannedZip | undefined,
): PackageFiles {
  const known = (name: string): Indexed => {
    const found = index.get(name);
    if (!found) throw new PackageReadError('CSAR_FILE_MISSING', name, `${name} is not in the package`);
    return found;
  };
  /** The entry, when nothing makes its content unreadable. */
  const readable = (name: string): yauzl.Entry => {
    const { entry, problems } = known(name);
    if (problems.length > 0) throw new PackageReadError(problems[0].code, name, problems[0].message);
    return entry;
  };
  const openStream = async (name: string): Promise<Readable> => {
    const entry = readable(name);
    let source: Readable;
    try {
      source = await zip.openReadStreamPromise(entry);
    } catch (err) {
      throw streamOpenFailure(name, err as Error);
    }
    return verifiedEntryStream(source, name, {
      size: entry.uncompressedSize,
      crc32: entry.crc32,
    });
  };
  return {
    names: [...index.keys()].sort(),
    has: (name) => index.has(name),
    size: (name) => known(name).entry.uncompressedSize,
    async readText(name) {
      if (known(name).entry.uncompressedSize > max.maxTextBytes) {
        throw new PackageReadError(
          'CSAR_TEXT_TOO_LARGE',
          name,
          `${name} is larger than ${max.maxTextBytes} bytes and cannot be read as text`,
        );
      }
      // Bounded: the stream never yields more than the declared size checked above.
      const chunks: Buffer[] = [];
      for await (const chunk of await openStream(name)) chunks.push(chunk as Buffer);
      return decodeText(name, Buffer.concat(chunks));
    },
    openStream,
    async digest(name, algorithm) {
      const entry = readable(name);
      // Deflated entries go through the inflating stream; stored ones (images, as `package
      // build` writes them) are read in place with one reused buffer.
      if (entry.compressionMethod !== 0) return hashStream(await openStream(name), algorithm);
      return storedDigest(path, zip, entry, name, algorithm, zipScan);
    },
    async close() {
      if (zip.isOpen) zip.close();
    },
  };
}

/** A stored entry's digest: the upload scan's when it agrees, else read in place and CRC-checked. */
async function storedDigest(
  path: string,
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  name: string,
  algorithm: HashAlgorithm,
  zipScan: ScannedZip | undefined,
): Promise<string> {
  const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
  const scanned = scannedDigest(
    zipScan,
    {
      offset: entry.relativeOffsetOfLocalHeader,
      dataStart: fileDataStart,
      method: entry.compressionMethod,
      compressedSize: entry.compressedSize,
      size: entry.uncompressedSize,
      crc32: entry.crc32,
    },
    algorithm,
  );
  if (scanned) return scanned;
  const range = await digestRange(path, fileDataStart, entry.compressedSize, algorithm);
  if (range.read < entry.compressedSize) {
    throw new PackageReadError('CSAR_TRUNCATED', name, `${name} is cut short: the archive ends inside it`);
  }
  if (range.crc32 !== entry.crc32 >>> 0) {
    const hex = (n: number) => n.toString(16).padStart(8, '0');
    throw new PackageReadError(
      'CSAR_CRC_MISMATCH',
      name,
      `${name} is damaged: its CRC-32 is ${hex(range.crc32)} but the zip entry declares ${hex(entry.crc32 >>> 0)}`,
    );
  }
  return range.digest;
}

function readCentralDirectory(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}

function packageError(code: string, message: string, file?: string): Diagnostic {
  return { code, severity: 'error', message, ...(file === undefined ? {} : { file }) };
}

/** yauzl cannot find an end-of-central-directory record: a cut-off zip, or not a zip at all. */
async function openFailure(path: string, err: NodeJS.ErrnoException): Promise<Diagnostic> {
  if (err.code !== undefined) {
    return packageError('CSAR_UNREADABLE', `cannot read ${path}: ${err.message}`);
  }
  if (/multi-disk/.test(err.message)) {
    return packageError(
      'CSAR_NOT_A_ZIP',
      `the package is a split (multi-disk) zip archive, which is not supported: ${err.message}`,
    );
  }
  if (await startsLikeZip(path)) {
    return packageError(
      'CSAR_TRUNCATED',
      `the package starts like a zip archive but its end (the central directory) is missing or damaged; was the upload cut short? (${err.message})`,
    );
  }
  return packageError(
    'CSAR_NOT_A_ZIP',
    'the package is not a zip archive; a CSAR must be a zip file (SOL004)',
  );
}

/** Local file header or empty-archive signature at offset 0. */
async function startsLikeZip(path: string): Promise<boolean> {
  const handle = await openFile(path, 'r');
  try {
    const head = Buffer.alloc(ZIP_MAGIC_LENGTH);
    const { bytesRead } = await handle.read(head, 0, ZIP_MAGIC_LENGTH, 0);
    return isZipMagic(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

function directoryFailure(err: Error): Diagnostic {
  if (/unexpected EOF/.test(err.message)) {
    return packageError(
      'CSAR_TRUNCATED',
      'the zip central directory extends past the end of the file; the archive is truncated',
    );
  }
  if (/strong encryption/.test(err.message)) {
    return packageError(
      'CSAR_ENCRYPTED_ENTRY',
      'the archive uses strong encryption; package entries must be stored unencrypted',
    );
  }
  return packageError(
    'CSAR_NOT_A_ZIP',
    `the zip central directory is damaged and cannot be read: ${err.message}`,
  );
}

function streamOpenFailure(name: string, err: Error): PackageReadError {
  if (/overflows file bounds|unexpected EOF/.test(err.message)) {
    return new PackageReadError(
      'CSAR_TRUNCATED',
      name,
      `${name} extends past the end of the archive; the package is truncated`,
    );
  }
  if (err.message === 'closed') {
    return new PackageReadError('CSAR_CLOSED', name, `cannot read ${name}: the package is closed`);
  }
  return new PackageReadError('CSAR_CORRUPT_ENTRY', name, `${name} cannot be read: ${err.message}`);
}

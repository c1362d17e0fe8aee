/**
 * What the central directory of a CSAR may say about one entry, decided before any content is
 * read. Kept apart from the reader so each rule is a pure function of the entry's metadata.
 */
import type { Diagnostic } from '../diagnostics.ts';
import type { CsarLimits } from './limits.ts';

/** Ratios of small entries say nothing (a 1 KiB file of spaces compresses 100×). */
export const BOMB_MIN_BYTES = 2 ** 20;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** The central-directory fields the checks need (a subset of yauzl's Entry). */
export interface EntryMeta {
  generalPurposeBitFlag: number;
  compressionMethod: number;
  compressedSize: number;
  uncompressedSize: number;
  externalFileAttributes: number;
}

export type EntryVerdict =
  /** Directory entries carry no content; packages are judged by their files. */
  | { kind: 'directory' }
  /** Never exposed: its name or type is unsafe to act on at all. */
  | { kind: 'hidden'; diagnostic: Diagnostic }
  /** Exposed under `name`; non-empty `problems` make its content unreadable. */
  | { kind: 'file'; name: string; problems: Diagnostic[] };

const error = (code: string, file: string, message: string): Diagnostic => ({
  code,
  severity: 'error',
  file,
  message,
});

// NUL and friends truncate or confuse names in C tools and terminals.
const hasControlCharacter = (name: string) => [...name].some((c) => c.charCodeAt(0) < 0x20);

/**
 * `stored` is the name as decoded from the archive with backslashes preserved. Returns the
 * package path ('/'-separated, `.` and empty segments dropped) or the reason it is refused.
 */
export function checkEntryName(
  stored: string,
): { name: string; directory: boolean } | { diagnostic: Diagnostic } {
  const slashed = stored.replaceAll('\\', '/');
  const segments = slashed.split('/');
  if (segments.includes('..')) {
    return {
      diagnostic: error(
        'CSAR_PATH_TRAVERSAL',
        stored,
        `entry "${stored}" has a ".." segment and would point outside the package`,
      ),
    };
  }
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) {
    return {
      diagnostic: error(
        'CSAR_ABSOLUTE_PATH',
        stored,
        `entry "${stored}" is an absolute path; package paths must be relative to the package root`,
      ),
    };
  }
  // ZIP names use '/' only; a backslash is a Windows path that tools resolve differently.
  if (stored.includes('\\')) {
    return {
      diagnostic: error(
        'CSAR_ABSOLUTE_PATH',
        stored,
        `entry "${stored}" uses "\\" as a separator; zip entry names must use "/"`,
      ),
    };
  }
  const name = segments.filter((s) => s !== '' && s !== '.').join('/');
  if (slashed.endsWith('/') || (name === '' && stored !== '')) return { name, directory: true };
  if (name === '' || hasControlCharacter(name)) {
    return {
      diagnostic: error(
        'CSAR_INVALID_NAME',
        stored,
        `entry ${JSON.stringify(stored)} has an empty name or control characters in its name`,
      ),
    };
  }
  return { name, directory: false };
}

/** Every rule that can be decided from one entry's central-directory record. */
export function checkEntry(stored: string, entry: EntryMeta, limits: CsarLimits): EntryVerdict {
  const named = checkEntryName(stored);
  if ('diagnostic' in named) return { kind: 'hidden', diagnostic: named.diagnostic };
  if (named.directory) return { kind: 'directory' };
  const { name } = named;
  // Mode bits live in the high half of the external attributes (Unix "made by" hosts).
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
    return {
      kind: 'hidden',
      diagnostic: error(
        'CSAR_SYMLINK',
        name,
        `${name} is a symbolic link; packages may contain regular files only`,
      ),
    };
  }
  if (entry.generalPurposeBitFlag & 0x1) {
    return {
      kind: 'hidden',
      diagnostic: error(
        'CSAR_ENCRYPTED_ENTRY',
        name,
        `${name} is encrypted; package entries must be stored unencrypted (sign them instead)`,
      ),
    };
  }
  const problems: Diagnostic[] = [];
  const { compressionMethod: method, compressedSize: packed, uncompressedSize: size } = entry;
  if (method !== 0 && method !== 8) {
    problems.push(
      error(
        'CSAR_UNSUPPORTED_COMPRESSION',
        name,
        `${name} uses compression method ${method}; only stored (0) and deflate (8) are supported`,
      ),
    );
  } else if (method === 0 && packed !== size) {
    problems.push(
      error(
        'CSAR_SIZE_MISMATCH',
        name,
        `${name} is stored uncompressed but declares ${packed} bytes in the archive and ${size} bytes uncompressed`,
      ),
    );
  }
  if (size > limits.maxEntryBytes) {
    problems.push(
      error(
        'CSAR_ENTRY_TOO_LARGE',
        name,
        `${name} is ${size} bytes uncompressed; the limit is ${limits.maxEntryBytes}`,
      ),
    );
  }
  if (size > BOMB_MIN_BYTES && size / Math.max(packed, 1) > limits.maxCompressionRatio) {
    const ratio = Math.round(size / Math.max(packed, 1));
    problems.push(
      error(
        'CSAR_ZIP_BOMB',
        name,
        `${name} expands ${ratio}× (${packed} → ${size} bytes); the limit is ${limits.maxCompressionRatio}×`,
      ),
    );
  }
  return { kind: 'file', name, problems };
}

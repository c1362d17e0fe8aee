/**
 * Blob keys are '/'-separated relative paths with a small character set, so that the same key
 * is a safe file path (fs) and a plain object name (s3). Segments may not start with '.': such
 * names are reserved for temporary files, and '.'/'..' could escape the store's folder.
 */

export class InvalidBlobKeyError extends Error {
  override name = 'InvalidBlobKeyError';
  readonly key: string;
  constructor(key: string, what = 'blob key') {
    super(
      `invalid ${what} ${JSON.stringify(key)}: expected '/'-separated names of [A-Za-z0-9._-], none starting with '.'`,
    );
    this.key = key;
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;

/** Throws InvalidBlobKeyError unless `key` names a blob. */
export function checkKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new InvalidBlobKeyError(String(key));
  }
  for (const segment of key.split('/')) {
    if (!SEGMENT.test(segment)) throw new InvalidBlobKeyError(key);
  }
  return key;
}

/** A list prefix: '' or the start of a key (it may end with '/' or in the middle of a name). */
export function checkPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  const body = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  const segments = body.split('/');
  const last = segments.pop() ?? '';
  // The last segment may be partial, even empty after a trailing '/'.
  if (last !== '' && !SEGMENT.test(last)) throw new InvalidBlobKeyError(prefix, 'blob prefix');
  if (prefix.endsWith('/') && last === '') throw new InvalidBlobKeyError(prefix, 'blob prefix');
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) throw new InvalidBlobKeyError(prefix, 'blob prefix');
  }
  return prefix;
}

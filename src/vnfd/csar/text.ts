/** Package text files are strict UTF-8 (a leading BOM is dropped), whatever stores them. */
import { PackageReadError } from './package-files.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeText(name: string, bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new PackageReadError('CSAR_NOT_UTF8', name, `${name} is not valid UTF-8 text`);
  }
}

/**
 * Checks an entry's content while it streams: never more bytes than the central directory
 * declares (a lying zip bomb is cut off at the declared size, not after inflating it all), not
 * fewer, and the CRC-32 at the end (yauzl does not check CRCs). Failures surface as stream
 * errors carrying a PackageReadError, so a hash in progress rejects with the file and the cause.
 */
import { type Readable, Transform } from 'node:stream';
import { crc32 } from 'node:zlib';
import { PackageReadError } from './package-files.ts';

export interface DeclaredContent {
  size: number;
  crc32: number;
}

const hex = (n: number) => n.toString(16).padStart(8, '0');

export function verifiedEntryStream(source: Readable, name: string, declared: DeclaredContent): Readable {
  let seen = 0;
  let crc = 0;
  const checked = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > declared.size) {
        callback(
          new PackageReadError(
            'CSAR_SIZE_MISMATCH',
            name,
            `${name} yields more than the ${declared.size} bytes its zip entry declares; the archive is damaged or hostile`,
          ),
        );
        return;
      }
      crc = crc32(chunk, crc);
      callback(null, chunk);
    },
    flush(callback) {
      if (seen < declared.size) {
        callback(
          new PackageReadError(
            'CSAR_SIZE_MISMATCH',
            name,
            `${name} yields ${seen} bytes but its zip entry declares ${declared.size}; the archive is damaged`,
          ),
        );
      } else if (crc >>> 0 !== declared.crc32 >>> 0) {
        callback(
          new PackageReadError(
            'CSAR_CRC_MISMATCH',
            name,
            `${name} is damaged: its CRC-32 is ${hex(crc >>> 0)} but the zip entry declares ${hex(declared.crc32 >>> 0)}`,
          ),
        );
      } else {
        callback();
      }
    },
    destroy(err, callback) {
      // yauzl asks that its stream be unpiped before it is destroyed.
      source.unpipe(checked);
      source.destroy();
      callback(err);
    },
  });
  source.on('error', (err: Error) => {
    checked.destroy(
      err instanceof PackageReadError
        ? err
        : new PackageReadError('CSAR_CORRUPT_ENTRY', name, `${name} cannot be decompressed: ${err.message}`),
    );
  });
  source.pipe(checked);
  return checked;
}

/**
 * Zip archives for CSAR reader tests: well-formed ones through yazl, and hostile ones (names,
 * flags, attributes and sizes yazl refuses to write) through a minimal raw writer.
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { crc32, deflateRawSync } from 'node:zlib';
import yazl from 'yazl';

export interface ZipInput {
  name: string;
  data: Buffer | string;
  /** Unix mode, e.g. 0o100644; yazl's default otherwise. */
  mode?: number;
  /** Deflate (default true). */
  compress?: boolean;
}

/** A normal zip, as a vendor's tooling would write it. Names ending in '/' become directories. */
export async function writeZip(path: string, entries: ZipInput[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.name.endsWith('/')) {
      zip.addEmptyDirectory(e.name);
      continue;
    }
    const options: { compress: boolean; mode?: number } = { compress: e.compress ?? true };
    if (e.mode !== undefined) options.mode = e.mode;
    zip.addBuffer(Buffer.from(e.data), e.name, options);
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(path));
}

export interface RawEntry {
  /** Written byte for byte (UTF-8 when a string). */
  name: string | Buffer;
  data: Buffer | string;
  /** Deflate (default false: stored). */
  compress?: boolean;
  /** General purpose bit flag; bit 0 claims encryption. Default 0x800 (UTF-8 names). */
  flags?: number;
  /** Unix mode in the high 16 bits, e.g. (0o120777 << 16) >>> 0 for a symlink. */
  externalAttributes?: number;
  /** Compression method as declared (default 8 when compressed, else 0). */
  method?: number;
  /** Lies written into both headers instead of the true values. */
  crc32?: number;
  compressedSize?: number;
  uncompressedSize?: number;
}

/** A zip built field by field, so tests can write whatever an attacker could. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.isBuffer(e.name) ? e.name : Buffer.from(e.name, 'utf8');
    const plain = Buffer.from(e.data);
    const packed = e.compress ? deflateRawSync(plain) : plain;
    const fields = {
      flags: e.flags ?? 0x800,
      method: e.method ?? (e.compress ? 8 : 0),
      crc: e.crc32 ?? crc32(plain),
      csize: e.compressedSize ?? packed.length,
      usize: e.uncompressedSize ?? plain.length,
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(fields.flags, 6);
    local.writeUInt16LE(fields.method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01
    local.writeUInt32LE(fields.crc >>> 0, 14);
    local.writeUInt32LE(fields.csize, 18);
    local.writeUInt32LE(fields.usize, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4); // made by Unix, spec 3.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(fields.flags, 8);
    central.writeUInt16LE(fields.method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(fields.crc >>> 0, 16);
    central.writeUInt32LE(fields.csize, 20);
    central.writeUInt32LE(fields.usize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE((e.externalAttributes ?? 0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...locals, directory, end]);
}

export async function writeRawZip(path: string, entries: RawEntry[]): Promise<void> {
  await writeFile(path, rawZip(entries));
}

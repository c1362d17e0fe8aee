import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashStream } from '../../../src/vnfd/csar/hash.ts';
import { PackageReadError } from '../../../src/vnfd/csar/package-files.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { rawZip, writeRawZip, writeZip } from '../../support/zip-fixtures.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-zip-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
const zipPath = () => join(dir, `p${counter++}.zip`);

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const codes = (diagnostics: { code: string }[]) => diagnostics.map((d) => d.code);

describe('openZipPackage: a valid package', () => {
  test('lists regular files sorted, with sizes, text and streams', async () => {
    const path = zipPath();
    const vnfd = 'tosca_definitions_version: tosca_simple_yaml_1_3\n# café\n';
    const image = randomBytes(3000);
    await writeZip(path, [
      { name: 'TOSCA-Metadata/', data: '' },
      { name: 'TOSCA-Metadata/TOSCA.meta', data: 'TOSCA-Meta-File-Version: 1.0\n' },
      { name: 'Definitions/vnfd.yaml', data: vnfd },
      { name: 'Files/images/cirros.img', data: image, compress: false },
      { name: 'Files/empty.txt', data: '' },
    ]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(diagnostics, []);
    assert.ok(files);
    try {
      assert.deepEqual(files.names, [
        'Definitions/vnfd.yaml',
        'Files/empty.txt',
        'Files/images/cirros.img',
        'TOSCA-Metadata/TOSCA.meta',
      ]);
      assert.equal(files.has('TOSCA-Metadata/'), false);
      assert.equal(files.has('Definitions/vnfd.yaml'), true);
      assert.equal(files.size('Definitions/vnfd.yaml'), Buffer.byteLength(vnfd));
      assert.equal(files.size('Files/images/cirros.img'), 3000);
      assert.equal(await files.readText('Definitions/vnfd.yaml'), vnfd);
      assert.equal(await files.readText('Files/empty.txt'), '');
      assert.deepEqual(await readAll(await files.openStream('Files/images/cirros.img')), image);
      await assert.rejects(files.readText('nope.yaml'), { code: 'CSAR_FILE_MISSING', file: 'nope.yaml' });
      assert.throws(() => files.size('nope.yaml'), PackageReadError);
    } finally {
      await files.close();
    }
  });

  test('normalises ./ prefixes and drops the UTF-8 BOM from text', async () => {
    const path = zipPath();
    await writeRawZip(path, [{ name: './Definitions/./a.yaml', data: '\ufeffkey: value\n' }]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(diagnostics, []);
    assert.ok(files);
    assert.deepEqual(files.names, ['Definitions/a.yaml']);
    assert.equal(await files.readText('Definitions/a.yaml'), 'key: value\n');
    await files.close();
  });

  test('streams a 20 MiB entry whose digest equals that of the data', async () => {
    const path = zipPath();
    const data = Buffer.concat([randomBytes(10 * 2 ** 20), Buffer.alloc(10 * 2 ** 20, 7)]);
    await writeZip(path, [{ name: 'Files/images/big.qcow2', data }]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(diagnostics, []);
    assert.ok(files);
    const digest = await hashStream(await files.openStream('Files/images/big.qcow2'), 'sha-256');
    assert.equal(digest, createHash('sha256').update(data).digest('hex'));
    await files.close();
  });

  test('several streams of one package can be read at once', async () => {
    const path = zipPath();
    const a = randomBytes(200_000);
    const b = randomBytes(300_000);
    await writeZip(path, [
      { name: 'a.bin', data: a },
      { name: 'b.bin', data: b, compress: false },
    ]);
    const { files } = await openZipPackage(path);
    assert.ok(files);
    const [ra, rb] = await Promise.all([
      files.openStream('a.bin').then(readAll),
      files.openStream('b.bin').then(readAll),
    ]);
    assert.deepEqual(ra, a);
    assert.deepEqual(rb, b);
    await files.close();
    await assert.rejects(files.openStream('a.bin'), { code: 'CSAR_CLOSED' });
  });
  test('a stream abandoned half-way leaves the package readable', async () => {
    const path = zipPath();
    const big = randomBytes(4 * 2 ** 20);
    await writeZip(path, [
      { name: 'big.bin', data: big },
      { name: 'stored.bin', data: big, compress: false },
      { name: 'a.txt', data: 'still here' },
    ]);
    const { files } = await openZipPackage(path);
    assert.ok(files);
    for (const name of ['big.bin', 'stored.bin']) {
      const stream = await files.openStream(name);
      for await (const chunk of stream) {
        assert.ok((chunk as Buffer).length > 0);
        break; // destroys the stream
      }
      assert.equal(stream.destroyed, true);
    }
    assert.equal(await files.readText('a.txt'), 'still here');
    await files.close();
  });
});

describe('openZipPackage: unsafe entries are diagnostics, and good entries stay readable', () => {
  const good = { name: 'Definitions/vnfd.yaml', data: 'ok: true\n' };

  const hidden: [string, Parameters<typeof rawZip>[0][number], string, string][] = [
    [
      'path traversal',
      { name: 'Files/../../etc/passwd', data: 'x' },
      'CSAR_PATH_TRAVERSAL',
      'Files/../../etc/passwd',
    ],
    ['backslash traversal', { name: '..\\evil.sh', data: 'x' }, 'CSAR_PATH_TRAVERSAL', '..\\evil.sh'],
    ['absolute path', { name: '/etc/cron.d/evil', data: 'x' }, 'CSAR_ABSOLUTE_PATH', '/etc/cron.d/evil'],
    ['drive letter', { name: 'C:/Windows/evil.dll', data: 'x' }, 'CSAR_ABSOLUTE_PATH', 'C:/Windows/evil.dll'],
    ['backslash separator', { name: 'Files\\evil.sh', data: 'x' }, 'CSAR_ABSOLUTE_PATH', 'Files\\evil.sh'],
    [
      'symlink',
      { name: 'Files/link', data: '/etc/shadow', externalAttributes: (0o120777 << 16) >>> 0 },
      'CSAR_SYMLINK',
      'Files/link',
    ],
    [
      'encrypted entry',
      { name: 'Files/secret.bin', data: 'x', flags: 0x801 },
      'CSAR_ENCRYPTED_ENTRY',
      'Files/secret.bin',
    ],
    ['control characters', { name: 'Files/a\u0000b', data: 'x' }, 'CSAR_INVALID_NAME', 'Files/a\u0000b'],
  ];
  for (const [what, entry, code, file] of hidden) {
    test(`${what}: ${code}, not listed`, async () => {
      const path = zipPath();
      await writeRawZip(path, [entry, good]);
      const { files, diagnostics } = await openZipPackage(path);
      assert.deepEqual(codes(diagnostics), [code]);
      assert.equal(diagnostics[0].file, file);
      assert.equal(diagnostics[0].severity, 'error');
      assert.ok(files);
      assert.deepEqual(files.names, ['Definitions/vnfd.yaml']);
      assert.equal(await files.readText('Definitions/vnfd.yaml'), 'ok: true\n');
      await files.close();
    });
  }

  test('every bad entry is reported in one pass', async () => {
    const path = zipPath();
    await writeRawZip(path, [...hidden.map(([, entry]) => entry), good]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(
      codes(diagnostics),
      hidden.map(([, , code]) => code),
    );
    assert.ok(files);
    assert.deepEqual(files.names, ['Definitions/vnfd.yaml']);
    await files.close();
  });

  test('duplicate names (after ./ normalisation): listed once, neither copy readable', async () => {
    const path = zipPath();
    await writeRawZip(path, [
      { name: 'Definitions/vnfd.yaml', data: 'first\n' },
      { name: './Definitions/vnfd.yaml', data: 'second\n' },
      { name: 'Definitions/vnfd.yaml', data: 'third\n' },
      { name: 'other.txt', data: 'fine' },
    ]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(codes(diagnostics), ['CSAR_DUPLICATE_ENTRY']);
    assert.equal(diagnostics[0].file, 'Definitions/vnfd.yaml');
    assert.ok(files);
    assert.deepEqual(files.names, ['Definitions/vnfd.yaml', 'other.txt']);
    await assert.rejects(files.readText('Definitions/vnfd.yaml'), {
      code: 'CSAR_DUPLICATE_ENTRY',
      file: 'Definitions/vnfd.yaml',
    });
    assert.equal(await files.readText('other.txt'), 'fine');
    await files.close();
  });

  test('unsupported compression method: listed, not readable', async () => {
    const path = zipPath();
    await writeRawZip(path, [{ name: 'a.bz2', data: 'x', method: 12 }, good]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(codes(diagnostics), ['CSAR_UNSUPPORTED_COMPRESSION']);
    assert.ok(files);
    await assert.rejects(files.openStream('a.bz2'), { code: 'CSAR_UNSUPPORTED_COMPRESSION' });
    assert.equal(await files.readText(good.name), good.data);
    await files.close();
  });

  test('a stored entry whose sizes disagree: CSAR_SIZE_MISMATCH, others readable', async () => {
    const path = zipPath();
    await writeRawZip(path, [{ name: 'a.txt', data: 'abc', uncompressedSize: 2 }, good]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(codes(diagnostics), ['CSAR_SIZE_MISMATCH']);
    assert.equal(diagnostics[0].file, 'a.txt');
    assert.ok(files);
    await assert.rejects(files.readText('a.txt'), { code: 'CSAR_SIZE_MISMATCH' });
    assert.equal(await files.readText(good.name), good.data);
    await files.close();
  });
});

describe('openZipPackage: limits', () => {
  test('a zip bomb (50 MiB of zeros) is CSAR_ZIP_BOMB with the default limits', async () => {
    const path = zipPath();
    await writeZip(path, [
      { name: 'Files/bomb.img', data: Buffer.alloc(50 * 2 ** 20) },
      { name: 'small.txt', data: Buffer.alloc(100_000) }, // very compressible but small
    ]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(codes(diagnostics), ['CSAR_ZIP_BOMB']);
    assert.equal(diagnostics[0].file, 'Files/bomb.img');
    assert.ok(files);
    await assert.rejects(files.openStream('Files/bomb.img'), { code: 'CSAR_ZIP_BOMB' });
    assert.equal((await files.readText('small.txt')).length, 100_000);
    await files.close();
  });

  test('a compression ratio under the limit is accepted', async () => {
    const path = zipPath();
    await writeZip(path, [{ name: 'zeros.img', data: Buffer.alloc(2 * 2 ** 20) }]);
    const { diagnostics } = await openZipPackage(path, { maxCompressionRatio: 5000 });
    assert.deepEqual(diagnostics, []);
  });

  test('an entry that inflates past its declared size is cut off: CSAR_SIZE_MISMATCH', async () => {
    const path = zipPath();
    const data = Buffer.alloc(4 * 2 ** 20, 1);
    await writeRawZip(path, [{ name: 'liar.img', data, compress: true, uncompressedSize: 1000 }]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(diagnostics, []); // 1000 bytes declared: nothing to see up front
    assert.ok(files);
    await assert.rejects(readAll(await files.openStream('liar.img')), (err: PackageReadError) => {
      assert.equal(err.code, 'CSAR_SIZE_MISMATCH');
      assert.equal(err.file, 'liar.img');
      return true;
    });
    await files.close();
  });

  test('an entry that yields fewer bytes than declared: CSAR_SIZE_MISMATCH', async () => {
    const path = zipPath();
    await writeRawZip(path, [
      { name: 'short.bin', data: randomBytes(500), compress: true, uncompressedSize: 900 },
    ]);
    const { files } = await openZipPackage(path);
    assert.ok(files);
    await assert.rejects(readAll(await files.openStream('short.bin')), { code: 'CSAR_SIZE_MISMATCH' });
    await files.close();
  });

  test('entry too large: CSAR_ENTRY_TOO_LARGE, listed but unreadable', async () => {
    const path = zipPath();
    await writeZip(path, [
      { name: 'big.bin', data: randomBytes(2000) },
      { name: 'ok.txt', data: 'ok' },
    ]);
    const { files, diagnostics } = await openZipPackage(path, { maxEntryBytes: 1000 });
    assert.deepEqual(codes(diagnostics), ['CSAR_ENTRY_TOO_LARGE']);
    assert.equal(diagnostics[0].file, 'big.bin');
    assert.ok(files);
    assert.equal(files.has('big.bin'), true);
    await assert.rejects(files.openStream('big.bin'), { code: 'CSAR_ENTRY_TOO_LARGE' });
    assert.equal(await files.readText('ok.txt'), 'ok');
    await files.close();
  });

  test('total too large: CSAR_TOO_LARGE for the package', async () => {
    const path = zipPath();
    await writeZip(path, [
      { name: 'a.bin', data: randomBytes(600) },
      { name: 'b.bin', data: randomBytes(600) },
    ]);
    const { files, diagnostics } = await openZipPackage(path, { maxTotalBytes: 1000 });
    assert.deepEqual(codes(diagnostics), ['CSAR_TOO_LARGE']);
    assert.equal(diagnostics[0].file, undefined);
    assert.ok(files);
    await files.close();
  });

  test('too many entries: CSAR_TOO_MANY_ENTRIES and no files', async () => {
    const path = zipPath();
    await writeZip(
      path,
      Array.from({ length: 6 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })),
    );
    const { files, diagnostics } = await openZipPackage(path, { maxEntries: 5 });
    assert.deepEqual(codes(diagnostics), ['CSAR_TOO_MANY_ENTRIES']);
    assert.equal(files, undefined);
    const within = await openZipPackage(path, { maxEntries: 6 });
    assert.deepEqual(within.diagnostics, []);
    await within.files?.close();
  });

  test('readText refuses files over the text limit; openStream still works', async () => {
    const path = zipPath();
    await writeZip(path, [{ name: 'Definitions/huge.yaml', data: 'a'.repeat(2048) }]);
    const { files } = await openZipPackage(path, { maxTextBytes: 1024 });
    assert.ok(files);
    await assert.rejects(files.readText('Definitions/huge.yaml'), {
      code: 'CSAR_TEXT_TOO_LARGE',
      file: 'Definitions/huge.yaml',
    });
    assert.equal((await readAll(await files.openStream('Definitions/huge.yaml'))).length, 2048);
    await files.close();
  });

  test('readText refuses invalid UTF-8: CSAR_NOT_UTF8', async () => {
    const path = zipPath();
    await writeZip(path, [{ name: 'latin1.yaml', data: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) }]);
    const { files } = await openZipPackage(path);
    assert.ok(files);
    await assert.rejects(files.readText('latin1.yaml'), { code: 'CSAR_NOT_UTF8', file: 'latin1.yaml' });
    await files.close();
  });
});

describe('openZipPackage: damaged archives', () => {
  test('a CRC mismatch is detected while streaming', async () => {
    const path = zipPath();
    const data = randomBytes(100_000);
    await writeRawZip(path, [
      { name: 'img.bin', data, compress: true, crc32: 0xdeadbeef },
      { name: 'stored.bin', data: 'hello', crc32: 1 },
    ]);
    const { files, diagnostics } = await openZipPackage(path);
    assert.deepEqual(diagnostics, []);
    assert.ok(files);
    await assert.rejects(
      hashStream(await files.openStream('img.bin'), 'sha-256'),
      (err: PackageReadError) => {
        assert.ok(err instanceof PackageReadError);
        assert.equal(err.code, 'CSAR_CRC_MISMATCH');
        assert.equal(err.file, 'img.bin');
        assert.match(err.message, /deadbeef/);
        return true;
      },
    );
    await assert.rejects(files.readText('stored.bin'), { code: 'CSAR_CRC_MISMATCH' });
    // The in-place digest of stored entries checks the CRC too.
    await assert.rejects(files.digest('stored.bin', 'sha-256'), {
      code: 'CSAR_CRC_MISMATCH',
      file: 'stored.bin',
    });
    await assert.rejects(files.digest('img.bin', 'sha-256'), { code: 'CSAR_CRC_MISMATCH', file: 'img.bin' });
    await files.close();
  });

  test('corrupt deflate data: CSAR_CORRUPT_ENTRY', async () => {
    const path = zipPath();
    const zip = rawZip([{ name: 'a.bin', data: randomBytes(10_000), compress: true }]);
    // The data starts after the 30-byte local header and the 5-byte name; 0xff is a reserved
    // deflate block type, so inflating fails on the first byte.
    zip.fill(0xff, 30 + 5, 30 + 5 + 64);
    await writeFile(path, zip);
    const { files } = await openZipPackage(path);
    assert.ok(files);
    await assert.rejects(readAll(await files.openStream('a.bin')), (err: PackageReadError) => {
      assert.ok(err instanceof PackageReadError);
      assert.equal(err.code, 'CSAR_CORRUPT_ENTRY');
      assert.equal(err.file, 'a.bin');
      return true;
    });
    await files.close();
  });

  test('a truncated archive: CSAR_TRUNCATED', async () => {
    const path = zipPath();
    const zip = rawZip([
      { name: 'a.bin', data: randomBytes(5000) },
      { name: 'b.bin', data: randomBytes(5000) },
    ]);
    await writeFile(path, zip.subarray(0, 7000));
    const { files, diagnostics } = await openZipPackage(path);
    assert.equal(files, undefined);
    assert.deepEqual(codes(diagnostics), ['CSAR_TRUNCATED']);
  });

  test('a central directory pointing past the end of the file: CSAR_TRUNCATED', async () => {
    const path = zipPath();
    const zip = rawZip([{ name: 'a.bin', data: randomBytes(100) }]);
    zip.writeUInt32LE(0x7fff_0000, zip.length - 22 + 16); // central directory offset
    await writeFile(path, zip);
    const { files, diagnostics } = await openZipPackage(path);
    assert.equal(files, undefined);
    assert.deepEqual(codes(diagnostics), ['CSAR_TRUNCATED']);
  });

  test('an entry whose data lies past the end of the file: CSAR_TRUNCATED on open', async () => {
    const path = zipPath();
    await writeRawZip(path, [{ name: 'a.bin', data: 'abc', compress: true, compressedSize: 1_000_000 }]);
    const { files } = await openZipPackage(path);
    assert.ok(files);
    await assert.rejects(files.openStream('a.bin'), { code: 'CSAR_TRUNCATED', file: 'a.bin' });
    await files.close();
  });

  test('a file that is not a zip: CSAR_NOT_A_ZIP', async () => {
    const path = zipPath();
    await writeFile(path, 'tosca_definitions_version: tosca_simple_yaml_1_3\n'.repeat(20));
    const { files, diagnostics } = await openZipPackage(path);
    assert.equal(files, undefined);
    assert.deepEqual(codes(diagnostics), ['CSAR_NOT_A_ZIP']);
  });

  test('an empty file: CSAR_NOT_A_ZIP', async () => {
    const path = zipPath();
    await writeFile(path, '');
    const { diagnostics } = await openZipPackage(path);
    assert.deepEqual(codes(diagnostics), ['CSAR_NOT_A_ZIP']);
  });

  test('a damaged central directory: CSAR_NOT_A_ZIP', async () => {
    const path = zipPath();
    const zip = rawZip([{ name: 'a.bin', data: 'abc' }]);
    const cdOffset = zip.readUInt32LE(zip.length - 22 + 16);
    zip.writeUInt32LE(0x12345678, cdOffset); // central header signature
    await writeFile(path, zip);
    const { files, diagnostics } = await openZipPackage(path);
    assert.equal(files, undefined);
    assert.deepEqual(codes(diagnostics), ['CSAR_NOT_A_ZIP']);
  });

  test('a missing file: CSAR_UNREADABLE', async () => {
    const { files, diagnostics } = await openZipPackage(join(dir, 'absent.zip'));
    assert.equal(files, undefined);
    assert.deepEqual(codes(diagnostics), ['CSAR_UNREADABLE']);
  });
});

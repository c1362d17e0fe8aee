import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import type { HashAlgorithm } from '../../../src/sol/hash-algorithms.ts';
import { openDirectoryPackage } from '../../../src/vnfd/csar/directory-reader.ts';
import { hashFile, hashStream, normaliseAlgorithm } from '../../../src/vnfd/csar/hash.ts';
import { PackageReadError } from '../../../src/vnfd/csar/package-files.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { tempDir } from '../../support/temp.ts';
import { writeZip } from '../../support/zip-fixtures.ts';

// FIPS 180-4 example vectors for "abc".
const ABC: Record<HashAlgorithm, string> = {
  'sha-224': '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7',
  'sha-256': 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
  'sha-384':
    'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7',
  'sha-512':
    'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
};
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('normaliseAlgorithm', () => {
  for (const bits of ['224', '256', '384', '512']) {
    for (const written of [
      `SHA-${bits}`,
      `sha-${bits}`,
      `SHA${bits}`,
      `sha${bits}`,
      `Sha-${bits}`,
      ` SHA-${bits} `,
    ]) {
      test(`${JSON.stringify(written)} → sha-${bits}`, () => {
        assert.equal(normaliseAlgorithm(written), `sha-${bits}`);
      });
    }
  }
  for (const written of [
    'MD5',
    'SHA-1',
    'sha1',
    'SHA3-256',
    'sha-255',
    'sha--256',
    'SHA_256',
    '',
    'sha-256x',
  ]) {
    test(`${JSON.stringify(written)} is not a SOL004 algorithm`, () => {
      assert.equal(normaliseAlgorithm(written), undefined);
    });
  }
});

describe('hashStream', () => {
  for (const [algorithm, digest] of Object.entries(ABC) as [HashAlgorithm, string][]) {
    test(`${algorithm} of "abc" split across chunks`, async () => {
      assert.equal(await hashStream(Readable.from([Buffer.from('a'), Buffer.from('bc')]), algorithm), digest);
    });
  }

  test('empty stream', async () => {
    assert.equal(await hashStream(Readable.from([]), 'sha-256'), EMPTY_SHA256);
  });

  test('a stream error rejects with that error', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new PackageReadError('CSAR_CRC_MISMATCH', 'a.img', 'damaged'));
      },
    });
    await assert.rejects(hashStream(failing, 'sha-256'), { code: 'CSAR_CRC_MISMATCH', file: 'a.img' });
  });
});

describe('hashFile', () => {
  test('digests stored and deflated zip entries and directory files alike', async () => {
    const dir = tempDir('bosun-hash-');
    const data = randomBytes(3 * 2 ** 20 + 17);
    const expected = createHash('sha512').update(data).digest('hex');
    const zip = join(dir, 'p.zip');
    await writeZip(zip, [
      { name: 'Files/stored.img', data, compress: false },
      { name: 'Files/deflated.bin', data, compress: true },
    ]);
    const { files } = await openZipPackage(zip);
    assert.ok(files);
    assert.equal(await hashFile(files, 'Files/stored.img', 'sha-512'), expected);
    assert.equal(await hashFile(files, 'Files/deflated.bin', 'sha-512'), expected);
    await files.close();
    await mkdir(join(dir, 'pkg'));
    await writeFile(join(dir, 'pkg', 'x.img'), data);
    const folder = await openDirectoryPackage(join(dir, 'pkg'));
    assert.equal(await hashFile(folder.files!, 'x.img', 'sha-512'), expected);
  });
});

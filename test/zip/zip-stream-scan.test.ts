/**
 * The streaming scan of a zip's entries (digests computed while a package uploads): it must
 * find the digests reading finds, and a zip reader given a scan must answer exactly what it
 * answers without one — whatever the zip's local headers claim.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { crc32 } from 'node:zlib';
import yazl from 'yazl';
import type { HashAlgorithm } from '../../src/sol/hash-algorithms.ts';
import { openZipPackage } from '../../src/vnfd/csar/zip-reader.ts';
import { type ScannedZip, scannedDigest, ZipStreamScanner } from '../../src/zip/zip-stream-scan.ts';
import { SAMPLES_DIR } from '../support/samples.ts';
import { rawZip } from '../support/zip-fixtures.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bosun-zipscan-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});
let counter = 0;
async function saved(zip: Buffer): Promise<string> {
  const path = join(dir, `z${counter++}.zip`);
  await writeFile(path, zip);
  return path;
}

/** Scans `zip` fed in chunks of the given sizes (cycled). */
function scan(zip: Buffer, chunkSizes: number[] = [65536], options = {}): ScannedZip {
  const scanner = new ZipStreamScanner(options);
  let at = 0;
  for (let i = 0; at < zip.length; i++) {
    const n = chunkSizes[i % chunkSizes.length];
    scanner.update(zip.subarray(at, at + n));
    at += n;
  }
  return scanner.result();
}

/** One byte at a time, odd sizes, a typical chunk, everything at once. */
const CHUNKINGS = [[1], [3, 7, 1, 64], [4096], [2 ** 30]];

/** Entries written as tools that stream do: sizes and CRC in a data descriptor (bit 3). */
async function streamedZip(entries: { name: string; data: Buffer; compress: boolean }[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addReadStream(Readable.from([e.data]), e.name, { compress: e.compress });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Outcome = string;

/** Every file's digest (or the error code) as the reader answers, with or without a scan. */
async function outcomes(path: string, zipScan?: ScannedZip, algorithm: HashAlgorithm = 'sha-256') {
  const opened = await openZipPackage(path, {}, { zipScan });
  const result = new Map<string, Outcome>();
  if (!opened.files) return result;
  try {
    for (const name of opened.files.names) {
      result.set(
        name,
        await opened.files.digest(name, algorithm).catch((err: { code?: string }) => `error ${err.code}`),
      );
    }
  } finally {
    await opened.files.close();
  }
  return result;
}

async function assertSameAnswers(zip: Buffer, chunkings = CHUNKINGS): Promise<ScannedZip[]> {
  const path = await saved(zip);
  const plain = await outcomes(path);
  const scans: ScannedZip[] = [];
  for (const chunking of chunkings) {
    const scanned = scan(zip, chunking);
    scans.push(scanned);
    assert.deepEqual(await outcomes(path, scanned), plain, `chunks of ${chunking.join(',')}`);
  }
  return scans;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('ZipStreamScanner', () => {
  test('every shared sample: the stored entries and their digests, however the bytes are cut', async () => {
    for (const file of readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.zip'))) {
      const zip = readFileSync(join(SAMPLES_DIR, file));
      const path = await saved(zip);
      const opened = await openZipPackage(path);
      assert.ok(opened.files, file);
      const scans = await assertSameAnswers(zip, [[1000], [65536]]);
      for (const scanned of scans) {
        assert.equal(scanned.complete, true, file);
        for (const entry of scanned.entries) {
          const data = zip.subarray(entry.dataStart, entry.dataStart + entry.size);
          assert.equal(entry.digests['sha-256'], sha256(data), file);
          assert.equal(entry.crc32, crc32(data) >>> 0, file);
        }
      }
      await opened.files.close();
    }
  });

  test('data descriptors (bit 3): stored entries found by their descriptor, even with look-alikes inside', async () => {
    const signature = Buffer.from([0x50, 0x4b, 0x07, 0x08]);
    // Data that contains descriptor signatures, one followed by a plausible (wrong) descriptor.
    const tricky = Buffer.concat([
      randomBytes(100),
      signature,
      randomBytes(30),
      signature,
      Buffer.alloc(12),
      Buffer.from([0x50, 0x4b, 0x03, 0x04]),
      randomBytes(5000),
      signature.subarray(0, 3),
    ]);
    const image = randomBytes(300_000);
    const zip = await streamedZip([
      {
        name: 'Definitions/vnfd.yaml',
        data: Buffer.from('tosca_definitions_version: x\n'.repeat(50)),
        compress: true,
      },
      { name: 'Files/images/tricky.img', data: tricky, compress: false },
      { name: 'Files/images/empty.img', data: Buffer.alloc(0), compress: false },
      { name: 'Files/images/disk.img', data: image, compress: false },
      { name: 'Scripts/random.bin', data: randomBytes(20_000), compress: true },
      { name: 'Files/images/last.img', data: signature, compress: false },
    ]);
    const scans = await assertSameAnswers(zip);
    for (const scanned of scans) {
      assert.equal(scanned.complete, true);
      assert.deepEqual(
        scanned.entries.map((e) => [e.size, e.digests['sha-256']]),
        [tricky, Buffer.alloc(0), image, signature].map((d) => [d.length, sha256(d)]),
      );
    }
  });

  test('records at most maxRecorded entries, and other algorithms on request', () => {
    const zip = rawZip([
      { name: 'a.img', data: 'aaa' },
      { name: 'b.img', data: 'bbb' },
    ]);
    const one = scan(zip, [65536], { maxRecorded: 1, algorithms: ['sha-512'] });
    assert.equal(one.complete, true);
    assert.equal(one.entries.length, 1);
    assert.equal(one.entries[0].digests['sha-512'], createHash('sha512').update('aaa').digest('hex'));
    assert.equal(one.entries[0].digests['sha-256'], undefined);
  });

  test('stops at bytes that are not a zip, keeping what it found', () => {
    const zip = rawZip([{ name: 'a.img', data: 'aaa' }]);
    const cut = Buffer.concat([zip.subarray(0, 30 + 5 + 3), Buffer.from('garbage!')]);
    const scanned = scan(cut);
    assert.equal(scanned.complete, false);
    assert.equal(scanned.entries.length, 1);
    assert.equal(scan(Buffer.from('not a zip at all')).entries.length, 0);
    // Cut inside the entry: nothing recorded for it.
    assert.equal(scan(zip.subarray(0, 36)).entries.length, 0);
  });
});

describe('a zip reader given a scan', () => {
  test('answers with the recorded digest when the record matches the central directory', async () => {
    const image = randomBytes(10_000);
    const zip = rawZip([{ name: 'Files/images/a.img', data: image }]);
    const path = await saved(zip);
    const scanned = scan(zip);
    assert.equal(scanned.entries[0].digests['sha-256'], sha256(image));
    // A record is used as is (proof that reading was skipped): a doctored digest comes back.
    const doctored: ScannedZip = {
      ...scanned,
      entries: [{ ...scanned.entries[0], digests: { 'sha-256': 'f'.repeat(64) } }],
    };
    assert.equal((await outcomes(path, doctored)).get('Files/images/a.img'), 'f'.repeat(64));
    // Any disagreement with the central directory: read, as without a scan.
    for (const change of [
      { offset: 1 },
      { dataStart: scanned.entries[0].dataStart + 1 },
      { size: image.length - 1, compressedSize: image.length - 1 },
      { crc32: (scanned.entries[0].crc32 + 1) >>> 0 },
      { method: 8 },
    ]) {
      const wrong: ScannedZip = { ...doctored, entries: [{ ...doctored.entries[0], ...change }] };
      assert.equal(
        (await outcomes(path, wrong)).get('Files/images/a.img'),
        sha256(image),
        JSON.stringify(change),
      );
    }
    // An algorithm the scan did not compute is read.
    assert.equal(
      (await outcomes(path, doctored, 'sha-512')).get('Files/images/a.img'),
      createHash('sha512').update(image).digest('hex'),
    );
  });

  test('local headers that disagree with the central directory: the same answers as without a scan', async () => {
    const image = randomBytes(5000);
    const other = randomBytes(3000);
    const base = rawZip([
      { name: 'Files/images/a.img', data: image },
      { name: 'Files/images/b.img', data: other },
    ]);
    const nameLength = 'Files/images/a.img'.length;
    const cases: Buffer[] = [];
    // The local header claims a shorter entry than the central directory.
    const shorter = Buffer.from(base);
    shorter.writeUInt32LE(1000, 18);
    shorter.writeUInt32LE(1000, 22);
    cases.push(shorter);
    // …or a longer one (running into the next entry).
    const longer = Buffer.from(base);
    longer.writeUInt32LE(6000, 18);
    longer.writeUInt32LE(6000, 22);
    cases.push(longer);
    // The local header says deflated, the central directory stored.
    const method = Buffer.from(base);
    method.writeUInt16LE(8, 8);
    cases.push(method);
    // The local header's name is longer (its data starts elsewhere than the scan thinks).
    const extra = Buffer.from(base);
    extra.writeUInt16LE(4, 28);
    cases.push(extra);
    // The central directory's entry points into the middle of another entry's data, where a
    // crafted local header hides: an entry the scan never sees as one.
    const inner = rawZip([{ name: 'Files/images/a.img', data: other }]);
    const innerLocal = inner.subarray(0, 30 + nameLength + other.length);
    const outer = rawZip([
      { name: 'Files/images/outer.img', data: Buffer.concat([randomBytes(64), innerLocal]) },
    ]);
    const hidden = Buffer.from(outer);
    const centralAt = hidden.readUInt32LE(hidden.length - 22 + 16);
    hidden.writeUInt32LE(30 + 'Files/images/outer.img'.length + 64, centralAt + 42);
    cases.push(hidden);
    for (const zip of cases) await assertSameAnswers(zip);
  });

  test('a damaged stored entry fails with the same error either way', async () => {
    const image = randomBytes(5000);
    const zip = rawZip([{ name: 'Files/images/a.img', data: image, crc32: 1234 }]);
    const path = await saved(zip);
    const plain = await outcomes(path);
    assert.equal(plain.get('Files/images/a.img'), 'error CSAR_CRC_MISMATCH');
    await assertSameAnswers(zip);
  });

  test('scannedDigest ignores what it cannot use', () => {
    const entry = { offset: 0, dataStart: 30, method: 0, compressedSize: 1, size: 1, crc32: 0 };
    assert.equal(scannedDigest(undefined, entry, 'sha-256'), undefined);
    assert.equal(scannedDigest({ complete: true, entries: [] }, entry, 'sha-256'), undefined);
  });
});

/**
 * Entry digests computed while a package uploads (the zip scan), over real HTTP: the job row
 * keeps what the upload computed (equal to what reading the blob gives), the checksum is the
 * sha-512 of the zip, onboarding uses the scan to check the image against TOSCA.meta (a wrong
 * digest is still refused), and zips whose local headers disagree with the central directory
 * onboard or fail exactly as reading them says.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yazl from 'yazl';
import { addLargeImage, IMAGE, samplePackageFolder } from '../../../bench/support/packages.ts';
import { type RunningServer, startServer } from '../../../src/http/server.ts';
import { createLogger } from '../../../src/logging.ts';
import { uploadedZipScan } from '../../../src/packages/onboarding.ts';
import { buildPackage } from '../../../src/vnfd/csar/build.ts';
import { openZipPackage } from '../../../src/vnfd/csar/zip-reader.ts';
import { DIALECTS, freshDatabaseUrl } from '../../support/databases.ts';
import { http } from '../../support/http.ts';
import { testConfig } from '../../support/server.ts';
import { tempDir } from '../../support/temp.ts';
import { createPkg, type PkgInfo, putZip, SMALL_SAMPLE, sample, V1, waitSettled } from './support.ts';

const VNFD_ID = 'c3d4e5f6-0000-4000-8000-00000000d161';
/** Above the size from which puts hash on a thread. */
const IMAGE_MIB = 20;

/** Every file of a folder in a zip (images stored, sizes in data descriptors), as is. */
async function zipFolder(dir: string): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path);
      else zip.addFile(join(dir, path), path, { compress: !path.startsWith('Files/images/') });
    }
  };
  await walk('');
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Where `name`'s local header is (the first occurrence of the name is in it). */
function localHeaderOf(zip: Buffer, name: string): number {
  return zip.indexOf(Buffer.from(name)) - 30;
}

for (const dialect of DIALECTS) {
  describe(`entry digests computed during the upload on ${dialect}`, () => {
    const work = tempDir('bosun-upload-digests-');
    let big: Buffer;
    let wrongDigest: Buffer;
    let api: RunningServer;
    let config: ReturnType<typeof testConfig>;

    before(async () => {
      const folder = join(work, 'pkg');
      await samplePackageFolder(folder, VNFD_ID);
      await addLargeImage(folder, IMAGE_MIB);
      await buildPackage(folder, join(work, 'big.zip')); // writes the image's digest into TOSCA.meta
      big = readFileSync(join(work, 'big.zip'));
      const meta = join(folder, 'TOSCA-Metadata', 'TOSCA.meta');
      const text = await readFile(meta, 'utf8');
      await writeFile(meta, text.replace(/Hash: [0-9a-f]{64}/, `Hash: ${'0'.repeat(64)}`));
      wrongDigest = await zipFolder(folder);
      // A server that only takes uploads: the job stays queued, so its row can be read. A
      // server that onboards is started on the same database and blob folder when wanted.
      config = testConfig(await freshDatabaseUrl(dialect), {
        blobs: { dir: join(work, 'blobs') },
        worker: { pollIntervalMs: 50 },
      });
      api = await startServer(config, {
        role: 'api',
        logger: createLogger(config.log.level, process.stderr),
      });
    });
    after(async () => {
      await api?.close();
    });

    /** Uploads through the API-only server; returns the package id once PROCESSING. */
    async function upload(zip: Buffer): Promise<string> {
      const pkg = await createPkg(api.url);
      const put = await putZip(api.url, pkg.id, zip);
      assert.equal(put.status, 202, put.text);
      return pkg.id;
    }

    async function jobRow(id: string) {
      return api.context.db.kysely
        .selectFrom('vnf_packages')
        .select(['upload_source', 'checksum', 'onboarding_state'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    }

    /** Runs the queued job on a server that onboards; returns the v2 representation at the end. */
    async function onboardQueued(id: string): Promise<PkgInfo> {
      const worker = await startServer(config, { logger: createLogger(config.log.level, process.stderr) });
      try {
        return await waitSettled(worker.url, id);
      } finally {
        await worker.close();
      }
    }

    test('the job row keeps the digests the upload computed, equal to reading the blob', async () => {
      const id = await upload(big);
      const row = await jobRow(id);
      assert.equal(row.onboarding_state, 'PROCESSING');
      assert.deepEqual(JSON.parse(row.checksum ?? '{}'), {
        algorithm: 'sha-512',
        hash: createHash('sha512').update(big).digest('hex'),
      });
      const scan = uploadedZipScan(row.upload_source);
      assert.ok(scan?.complete);
      const image = scan.entries.find((e) => e.dataStart > localHeaderOf(big, IMAGE));
      assert.ok(image);
      assert.equal(image.size, IMAGE_MIB * 2 ** 20);
      const opened = await openZipPackage(await api.context.blobs.localFile(`packages/${id}/package.zip`));
      assert.ok(opened.files);
      try {
        assert.equal(image.digests['sha-256'], await opened.files.digest(IMAGE, 'sha-256'));
      } finally {
        await opened.files.close();
      }
      const done = await onboardQueued(id);
      assert.equal(done.onboardingState, 'ONBOARDED', JSON.stringify(done.onboardingFailureDetails));
      assert.equal(done.vnfdId, VNFD_ID);
      const info = await http<PkgInfo>(api.url, 'GET', `${V1}/${id}`);
      assert.equal(info.body.checksum?.hash, createHash('sha512').update(big).digest('hex'));
    });

    test('an image whose digest differs from TOSCA.meta is still refused', async () => {
      const id = await upload(wrongDigest);
      const done = await onboardQueued(id);
      assert.equal(done.onboardingState, 'ERROR');
      assert.match(JSON.stringify(done.onboardingFailureDetails), /cirros-0\.5\.2-x86_64-disk\.img/);
      assert.match(JSON.stringify(done.onboardingFailureDetails), /0{64}/);
    });

    test('a local header shorter than the central directory says: onboarded as reading says', async () => {
      const zip = Buffer.from(sample(SMALL_SAMPLE));
      const at = localHeaderOf(zip, IMAGE);
      assert.equal(zip.readUInt16LE(at + 8), 0, 'the sample stores its image');
      zip.writeUInt32LE(3, at + 18);
      zip.writeUInt32LE(3, at + 22);
      const id = await upload(zip);
      const scan = uploadedZipScan((await jobRow(id)).upload_source);
      assert.equal(scan?.complete, false, 'the scan stops where the short entry leaves it');
      const done = await onboardQueued(id);
      assert.equal(done.onboardingState, 'ONBOARDED', JSON.stringify(done.onboardingFailureDetails));
    });

    test('stored bytes that do not match the central directory CRC: refused as damaged', async () => {
      const zip = Buffer.from(big);
      const at = localHeaderOf(zip, IMAGE);
      const dataStart = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
      zip[dataStart + 1000] ^= 0xff;
      const id = await upload(zip);
      // The data descriptor's CRC-32 no longer matches the bytes: the scan cannot close the entry.
      const scan = uploadedZipScan((await jobRow(id)).upload_source);
      assert.ok(scan && !scan.entries.some((e) => e.dataStart === dataStart));
      const done = await onboardQueued(id);
      assert.equal(done.onboardingState, 'ERROR');
      assert.match(JSON.stringify(done.onboardingFailureDetails), /CRC-32/);
    });
  });
}

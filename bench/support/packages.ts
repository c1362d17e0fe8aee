/**
 * Packages the benchmarks generate from the vnflcm1 sample (two SOL001 type files, a flavour,
 * the top VNFD): copies with their own vnfdId, and copies holding a large image whose SHA-256
 * is declared in TOSCA.meta so that verification has to hash it.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extractPackage } from '../../test/support/extract.ts';
import { SAMPLES_DIR } from '../../test/support/samples.ts';

export const IMAGE = 'Files/images/cirros-0.5.2-x86_64-disk.img';
const BASE = join(SAMPLES_DIR, 'vnflcm1.zip');
const BASE_VNFD_ID = '5541a044-fc16-5ec2-a3ce-97fd313d1fe9';

/** vnflcm1 unpacked into `dir`, its vnfdId replaced everywhere it appears when one is given. */
export async function samplePackageFolder(dir: string, vnfdId?: string): Promise<void> {
  await extractPackage(BASE, dir);
  if (!vnfdId) return;
  for (const name of await readdir(join(dir, 'Definitions'))) {
    const path = join(dir, 'Definitions', name);
    await writeFile(path, (await readFile(path, 'utf8')).replaceAll(BASE_VNFD_ID, vnfdId));
  }
}

/** Replaces the image with `mib` MiB of incompressible bytes (like a real qcow2) declared with a SHA-256 in TOSCA.meta. */
export async function addLargeImage(dir: string, mib: number): Promise<string> {
  const path = join(dir, ...IMAGE.split('/'));
  const block = randomBytes(16 * 2 ** 20);
  const out = createWriteStream(path);
  for (let written = 0; written < mib; written += 16) {
    if (!out.write(block.subarray(0, Math.min(16, mib - written) * 2 ** 20))) {
      await new Promise<void>((r) => out.once('drain', () => r()));
    }
  }
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
  const metaPath = join(dir, 'TOSCA-Metadata', 'TOSCA.meta');
  const meta = await readFile(metaPath, 'utf8');
  await writeFile(
    metaPath,
    meta.replace(/(Name: Files\/images\/[^\n]*\n[^\n]*\n?)/, '$1Algorithm: SHA-256\nHash: 00\n'),
  );
  return path;
}

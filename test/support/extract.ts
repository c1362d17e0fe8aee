/** Unpacks a package zip into a folder through Bosun's own zip reader (tests and benchmarks). */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { openZipPackage } from '../../src/vnfd/csar/zip-reader.ts';

export async function extractPackage(zip: string, dir: string): Promise<void> {
  const { files, diagnostics } = await openZipPackage(zip);
  if (!files) throw new Error(`${zip} does not open: ${diagnostics.map((d) => d.message).join('; ')}`);
  try {
    for (const name of files.names) {
      const target = join(dir, ...name.split('/'));
      await mkdir(dirname(target), { recursive: true });
      await pipeline(await files.openStream(name), createWriteStream(target));
    }
  } finally {
    await files.close();
  }
}

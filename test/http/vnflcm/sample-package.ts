/**
 * Variants of a shared sample package for LCM tests: unpacked through Bosun's zip reader, its
 * vnfdId replaced by a fresh one (so it can be onboarded next to the original), files replaced or
 * edited, and zipped again.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import yazl from 'yazl';
import { extractPackage } from '../../support/extract.ts';
import { SAMPLES_DIR } from '../../support/samples.ts';

export interface Variant {
  /** The sample's vnfdId, replaced by a new one in every Definitions file. */
  vnfdId: string;
  /** Files to add or replace (package path → content). */
  files?: Record<string, string>;
  /** Edits of existing text files (package path → transformation). */
  edit?: Record<string, (text: string) => string>;
}

async function walk(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walk(path)));
    else out.push(path);
  }
  return out;
}

/** The variant as a zip, and its new vnfdId. */
export async function sampleVariant(
  sample: string,
  variant: Variant,
): Promise<{ zip: Buffer; vnfdId: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'bosun-variant-'));
  try {
    await extractPackage(join(SAMPLES_DIR, sample), dir);
    const vnfdId = randomUUID();
    const contents = new Map<string, Buffer>();
    for (const path of await walk(dir)) {
      const name = relative(dir, path).split('\\').join('/');
      let data = await readFile(path);
      if (name.startsWith('Definitions/'))
        data = Buffer.from(data.toString('utf8').replaceAll(variant.vnfdId, vnfdId));
      const edit = variant.edit?.[name];
      if (edit) data = Buffer.from(edit(data.toString('utf8')));
      contents.set(name, data);
    }
    for (const [name, text] of Object.entries(variant.files ?? {})) contents.set(name, Buffer.from(text));
    const zip = new yazl.ZipFile();
    for (const name of [...contents.keys()].sort())
      zip.addBuffer(contents.get(name) as Buffer, name, { mtime: new Date(0) });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
    return { zip: Buffer.concat(chunks), vnfdId };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

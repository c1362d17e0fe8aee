/**
 * The provisioning files on disk: one targets file and one rules file per VNF instance, named
 * from the instance id made safe for a file name (an id that is not plain gets a hash, so two
 * ids never share a file), written atomically (a temporary file renamed over the old one:
 * Prometheus never reads half a file) and never outside their folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve, sep } from 'node:path';

export const PREFIX = 'bosun-';
export const TARGETS_EXT = '.json';
export const RULES_EXT = '.yml';

/** `bosun-<id>` for a plain id; anything else is replaced and a hash of the id appended. */
export function fileBase(instanceId: string): string {
  if (/^[A-Za-z0-9_-]{1,128}$/.test(instanceId)) return `${PREFIX}${instanceId}`;
  const hash = createHash('sha256').update(instanceId).digest('hex').slice(0, 16);
  return `${PREFIX}${instanceId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)}-${hash}`;
}

/** The file's path in `dir`; throws if the name would leave it (a defence: fileBase is safe). */
export function pathIn(dir: string, name: string): string {
  const root = resolve(dir);
  const path = resolve(root, name);
  if (basename(path) !== name || !path.startsWith(root + sep)) throw new Error(`refusing file name ${name}`);
  return path;
}

/** The file's text, or undefined when it does not exist. */
export async function readIfAny(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Writes `text` unless the file already holds it; true when it wrote. */
export async function writeIfChanged(dir: string, name: string, text: string): Promise<boolean> {
  const path = pathIn(dir, name);
  if ((await readIfAny(path)) === text) return false;
  // Not matching the *.json / *.yml globs Prometheus reads, so it never sees a partial file.
  const temp = join(resolve(dir), `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { mode: 0o644 });
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return true;
}

/** Removes the file; true when it existed. */
export async function removeIfAny(dir: string, name: string): Promise<boolean> {
  const path = pathIn(dir, name);
  if ((await readIfAny(path)) === undefined) return false;
  await rm(path, { force: true });
  return true;
}

/** The bases (`bosun-…`) of the provisioning files in `dir` with extension `ext`. */
export async function basesIn(dir: string, ext: string): Promise<string[]> {
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  return names.filter((n) => n.startsWith(PREFIX) && n.endsWith(ext)).map((n) => n.slice(0, -ext.length));
}

/**
 * Temporary files (`.<name>.<random>.part`) that a put or a cache download left behind when its
 * process died. A live writer keeps touching its file, so an old mtime means abandoned.
 */

import { randomBytes } from 'node:crypto';
import type { Dirent } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

const TEMP_SUFFIX = '.part';

/** The temp file beside `target` that is renamed over it when complete. */
export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`);
}

const isTemp = (name: string) => name.startsWith('.') && name.endsWith(TEMP_SUFFIX);

/** Removes temp files under `root` not modified for `olderThanMs`; returns their paths. */
export async function removeStaleTempFiles(root: string, olderThanMs: number): Promise<string[]> {
  const removed: string[] = [];
  const cutoff = Date.now() - olderThanMs;
  const visit = async (folder: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw err;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile() && isTemp(entry.name)) {
        const info = await stat(path).catch(() => undefined);
        if (info && info.mtimeMs <= cutoff) {
          await rm(path, { force: true });
          removed.push(path);
        }
      }
    }
  };
  await visit(root);
  return removed;
}

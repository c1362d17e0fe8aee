/**
 * A package that is still a directory (what `bosun package lint <dir>` and `package build`
 * read). Same rules as a zip where they apply: no symlinks, no paths outside the folder,
 * bounded sizes and counts.
 */
import { createReadStream } from 'node:fs';
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { Diagnostic } from '../diagnostics.ts';
import { digestRange } from './digest-range.ts';
import { type CsarLimits, DEFAULT_CSAR_LIMITS } from './limits.ts';
import { type PackageFiles, PackageReadError } from './package-files.ts';
import { decodeText } from './text.ts';

export interface OpenedPackage {
  /** Absent when the package cannot be read at all. */
  files?: PackageFiles;
  diagnostics: Diagnostic[];
}

export async function openDirectoryPackage(
  dir: string,
  limits: Partial<CsarLimits> = {},
): Promise<OpenedPackage> {
  const max = { ...DEFAULT_CSAR_LIMITS, ...limits };
  const diagnostics: Diagnostic[] = [];
  const sizes = new Map<string, number>();
  try {
    await scanFolder(dir, dir, max, sizes, diagnostics);
  } catch (err) {
    if (err instanceof PackageReadError) {
      diagnostics.push({ code: err.code, severity: 'error', message: err.message });
      return { diagnostics };
    }
    diagnostics.push({
      code: 'CSAR_UNREADABLE',
      severity: 'error',
      message: `cannot read ${dir}: ${(err as Error).message}`,
    });
    return { diagnostics };
  }
  let total = 0;
  for (const size of sizes.values()) total += size;
  if (total > max.maxTotalBytes) {
    diagnostics.push({
      code: 'CSAR_TOO_LARGE',
      severity: 'error',
      message: `the package holds ${total} bytes; the limit is ${max.maxTotalBytes}`,
    });
  }
  return { files: directoryFiles(dir, sizes, max), diagnostics };
}

/**
 * Records the size of every regular file under `folder` by its package path (relative to
 * `dir`); symbolic links and files over the entry limit are reported, too many files end it.
 */
async function scanFolder(
  dir: string,
  folder: string,
  max: CsarLimits,
  sizes: Map<string, number>,
  diagnostics: Diagnostic[],
): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const full = join(folder, entry.name);
    const name = relative(dir, full).split(sep).join('/');
    if (entry.isSymbolicLink()) {
      diagnostics.push({
        code: 'CSAR_SYMLINK',
        severity: 'error',
        file: name,
        message: `${name} is a symbolic link; packages may contain regular files only`,
      });
    } else if (entry.isDirectory()) {
      await scanFolder(dir, full, max, sizes, diagnostics);
    } else if (entry.isFile()) {
      const { size } = await lstat(full);
      if (size > max.maxEntryBytes) {
        diagnostics.push({
          code: 'CSAR_ENTRY_TOO_LARGE',
          severity: 'error',
          file: name,
          message: `${name} is ${size} bytes; the limit is ${max.maxEntryBytes}`,
        });
      }
      sizes.set(name, size);
    }
    if (sizes.size > max.maxEntries) {
      throw new PackageReadError(
        'CSAR_TOO_MANY_ENTRIES',
        name,
        `the package has more than ${max.maxEntries} files`,
      );
    }
  }
}

/** The files found by `scanFolder`, read from the folder on demand. */
function directoryFiles(dir: string, sizes: Map<string, number>, max: CsarLimits): PackageFiles {
  const known = (name: string) => {
    if (!sizes.has(name))
      throw new PackageReadError('CSAR_FILE_MISSING', name, `${name} is not in the package`);
    return sizes.get(name)!;
  };
  const path = (name: string) => join(dir, ...name.split('/'));
  return {
    names: [...sizes.keys()].sort(),
    has: (name) => sizes.has(name),
    size: known,
    async readText(name) {
      if (known(name) > max.maxTextBytes) {
        throw new PackageReadError(
          'CSAR_TEXT_TOO_LARGE',
          name,
          `${name} is larger than ${max.maxTextBytes} bytes and cannot be read as text`,
        );
      }
      return decodeText(name, await readFile(path(name)));
    },
    async openStream(name): Promise<Readable> {
      known(name);
      return createReadStream(path(name));
    },
    async digest(name, algorithm) {
      return (await digestRange(path(name), 0, known(name), algorithm)).digest;
    },
    async close() {},
  };
}

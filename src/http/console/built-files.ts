/**
 * The built web console, read once at start into memory: a few hundred kilobytes, so every
 * request is a map lookup — no path from a request ever reaches the filesystem. The build
 * writes a `.gz` and a `.br` beside each compressible file; they are served as they are.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { contentTypeOf } from './content-types.ts';

export interface BuiltFile {
  type: string;
  body: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  /** Under assets/: the name carries the content's hash, so it may be cached for good. */
  immutable: boolean;
}

export interface BuiltConsole {
  dir: string;
  /** By path below /ui/ ('index.html', 'assets/index-3f2a.js'). */
  files: ReadonlyMap<string, BuiltFile>;
  index: BuiltFile;
}

/** A console build is small; a folder far larger than one is a mistake, not something to load. */
const MAX_TOTAL_BYTES = 32 * 1024 * 1024;

/** The folder a checkout builds into (`npm run build:console`). */
export const DEFAULT_CONSOLE_DIR = new URL('../../../console/dist/', import.meta.url).pathname;

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

function optional(path: string): Buffer | undefined {
  return existsSync(path) ? readFileSync(path) : undefined;
}

/** The build in `dir`, or undefined when it has none (no index.html). */
export function loadBuiltConsole(dir: string): BuiltConsole | undefined {
  if (!existsSync(join(dir, 'index.html'))) return undefined;
  const files = new Map<string, BuiltFile>();
  let total = 0;
  for (const path of walk(dir)) {
    const type = contentTypeOf(path);
    if (!type) continue;
    total += statSync(path).size;
    if (total > MAX_TOTAL_BYTES) {
      throw new Error(
        `The console folder ${dir} holds more than ${MAX_TOTAL_BYTES} bytes: is console.dir right?`,
      );
    }
    const name = relative(dir, path).split(sep).join('/');
    const body = readFileSync(path);
    files.set(name, {
      type,
      body,
      gzip: optional(`${path}.gz`),
      br: optional(`${path}.br`),
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      immutable: name.startsWith('assets/'),
    });
  }
  const index = files.get('index.html')!;
  return { dir, files, index };
}

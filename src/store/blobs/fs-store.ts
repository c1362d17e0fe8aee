/**
 * The filesystem blob store (single node, the default): a key is a path under `dir`. A put
 * writes `.<name>.<random>.part` beside the target, fsyncs and renames it over the target, so a
 * blob is either absent, the old bytes or the complete new bytes — never a partial file.
 */
import type { Dirent } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  BlobNotFoundError,
  type BlobStore,
  type ByteRange,
  type PutOptions,
  type PutResult,
} from './blob-store.ts';
import { checkKey, checkPrefix } from './key.ts';
import { PUT_HIGH_WATER_MARK, PutMeter } from './meter.ts';
import { checkRange } from './range.ts';
import { removeStaleTempFiles, tempPathFor } from './temp-files.ts';

const isMissing = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

export class FsBlobStore implements BlobStore {
  readonly kind = 'fs' as const;
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  private pathOf(key: string): string {
    return join(this.dir, ...checkKey(key).split('/'));
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<PutResult> {
    const target = this.pathOf(key);
    const meter = new PutMeter(options);
    const temp = tempPathFor(target);
    try {
      const handle = await this.openTemp(temp);
      try {
        flushAlong(meter, handle);
        // flush: fsync before the stream closes the handle, so the rename publishes durable bytes.
        await pipeline(
          body,
          meter,
          handle.createWriteStream({ flush: true, highWaterMark: PUT_HIGH_WATER_MARK }),
        );
      } finally {
        await handle.close(); // already closed by the stream in most cases; harmless then
      }
      await rename(temp, target);
    } catch (err) {
      body.destroy(); // a failure before the pipeline started must not leave the source hanging
      await rm(temp, { force: true });
      throw err;
    }
    await syncDir(dirname(target));
    return meter.result();
  }

  /** mkdir -p then create; retried because a concurrent delete may prune the fresh folder. */
  private async openTemp(temp: string): Promise<FileHandle> {
    for (let attempt = 1; ; attempt++) {
      await mkdir(dirname(temp), { recursive: true });
      try {
        return await open(temp, 'wx');
      } catch (err) {
        if (!isMissing(err) || attempt >= 5) throw err;
      }
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    if (range) checkRange(range);
    // Opening first makes "missing" a rejection here rather than a stream error later.
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'EISDIR')
        throw new BlobNotFoundError(key);
      throw err;
    }
    // A key naming a folder (the parent of other keys) is not a blob.
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new BlobNotFoundError(key);
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<{ size: number; modified: Date } | undefined> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size, modified: info.mtime } : undefined;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await rm(path, { force: true });
    await this.pruneEmptyParents(dirname(path));
  }

  /** Deleted packages must not leave one empty folder each behind. */
  private async pruneEmptyParents(folder: string): Promise<void> {
    let current = folder;
    while (current !== this.dir && current.startsWith(this.dir + sep)) {
      try {
        await rmdir(current);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      current = dirname(current);
    }
  }

  async *list(prefix: string): AsyncIterable<string> {
    checkPrefix(prefix);
    // Walk only the folder the prefix is certainly inside, then filter by the full prefix.
    const folderPart = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    for await (const key of this.walk(folderPart)) {
      if (key.startsWith(prefix)) yield key;
    }
  }

  private async *walk(relative: string): AsyncIterable<string> {
    let entries: Dirent[];
    try {
      entries = await readdir(relative ? join(this.dir, ...relative.split('/')) : this.dir, {
        withFileTypes: true,
      });
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue; // temporary files and anything not a key
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) yield* this.walk(key);
      else if (entry.isFile()) yield key;
    }
  }

  async localFile(key: string): Promise<string> {
    const path = this.pathOf(key);
    if (!(await this.stat(key))) throw new BlobNotFoundError(key);
    return path;
  }

  /** Temp files of puts that died with their process (the periodic sweep); returns their paths. */
  sweepTemporaries(olderThanMs: number): Promise<string[]> {
    return removeStaleTempFiles(this.dir, olderThanMs);
  }
}

/** Written bytes between two background flushes. */
const FLUSH_EVERY = 32 * 2 ** 20;

/**
 * Starts writing the file's dirty pages to disk every FLUSH_EVERY bytes (one datasync at a
 * time, on the thread pool) while the content still streams: the fsync that ends the put then
 * has little left to write, instead of all of a GiB at once (about half a second here).
 */
function flushAlong(meter: PutMeter, handle: FileHandle): void {
  let unflushed = 0;
  let flushing = false;
  meter.on('data', (chunk: Buffer) => {
    unflushed += chunk.length;
    if (unflushed < FLUSH_EVERY || flushing) return;
    unflushed = 0;
    flushing = true;
    handle
      .datasync()
      .catch(() => {}) // the final fsync reports what matters
      .finally(() => {
        flushing = false;
      });
  });
}

/** Makes the rename durable; not every platform can open a folder, hence best effort. */
async function syncDir(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

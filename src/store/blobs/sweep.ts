/**
 * The periodic sweep: deletes blobs under a prefix that no live record owns (leftovers of
 * deleted packages, of uploads whose record vanished), and the stores' abandoned temp files.
 */
import type { BlobStore } from './blob-store.ts';

export interface SweepOptions {
  /**
   * Spare blobs (and temp files) written less than this long ago: a blob may be written just
   * before the record that owns it is committed. Default 0 for blobs; temp files (which a
   * live writer keeps touching) use an hour when this is 0.
   */
  olderThanMs?: number;
  /** Stops the sweep between blobs (the server stops). */
  signal?: AbortSignal;
}

/** Both stores report when a blob was last written, and clean their own temp files. */
interface SweepableStore {
  stat(key: string): Promise<{ size: number; modified?: Date } | undefined>;
  sweepTemporaries?(olderThanMs: number): Promise<string[]>;
}

const TEMP_AGE_DEFAULT_MS = 60 * 60 * 1000;

/** Returns the keys deleted. */
export async function sweepBlobs(
  store: BlobStore,
  prefix: string,
  isLive: (key: string) => Promise<boolean> | boolean,
  options: SweepOptions = {},
): Promise<string[]> {
  const olderThanMs = options.olderThanMs ?? 0;
  const sweepable: SweepableStore = store;
  // Collected first: deleting while a listing is paged could skip keys.
  const keys: string[] = [];
  for await (const key of store.list(prefix)) keys.push(key);
  const deleted: string[] = [];
  const cutoff = Date.now() - olderThanMs;
  for (const key of keys) {
    options.signal?.throwIfAborted();
    if (await isLive(key)) continue;
    if (olderThanMs > 0) {
      const info = await sweepable.stat(key);
      if (!info) continue;
      if (info.modified && info.modified.getTime() > cutoff) continue;
    }
    await store.delete(key);
    deleted.push(key);
  }
  // Never 0 for temp files: that would cut puts in progress short.
  await sweepable.sweepTemporaries?.(olderThanMs > 0 ? olderThanMs : TEMP_AGE_DEFAULT_MS);
  return deleted;
}

/**
 * Copies every blob of one store into another (a single node's folder into the bucket of the
 * cluster it becomes), key for key, so that the records pointing at them need no change. Each
 * copy is verified by reading it back; a blob already in the target with the same size and
 * SHA-256 is left alone, so a copy cut short is finished by running it again.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BlobStore } from './blob-store.ts';

export type CopyOutcome = 'copied' | 'present' | 'failed';

export interface CopiedBlob {
  key: string;
  outcome: CopyOutcome;
  size: number;
  /** Why it failed (outcome 'failed'). */
  error?: string;
}

export interface CopySummary {
  copied: number;
  /** Already in the target with the same bytes. */
  present: number;
  failed: CopiedBlob[];
  /** Bytes written to the target. */
  bytes: number;
}

export interface CopyOptions {
  /** Only the keys under this prefix ('' for all). */
  prefix?: string;
  /** Called after each blob, with its place in the list. */
  onBlob?: (blob: CopiedBlob, index: number, total: number) => void;
  signal?: AbortSignal;
}

async function sha256Of(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Copies one blob unless the target holds the same bytes; throws what went wrong. */
async function copyOne(from: BlobStore, to: BlobStore, key: string): Promise<CopiedBlob> {
  const [source, target] = await Promise.all([from.stat(key), to.stat(key)]);
  if (!source) throw new Error('it vanished from the source while the copy ran');
  if (target?.size === source.size) {
    const [a, b] = await Promise.all([sha256Of(await from.get(key)), sha256Of(await to.get(key))]);
    if (a.sha256 === b.sha256) return { key, outcome: 'present', size: source.size };
  }
  const put = await to.put(key, await from.get(key), {
    maxBytes: Number.MAX_SAFE_INTEGER,
    digests: ['sha-256'],
    sizeHint: source.size,
  });
  const back = await sha256Of(await to.get(key));
  if (back.size !== put.size || back.sha256 !== put.digests['sha-256']) {
    throw new Error(
      `the copy reads back as ${back.size} bytes with SHA-256 ${back.sha256}, not the ${put.size} bytes with SHA-256 ${put.digests['sha-256']} written`,
    );
  }
  return { key, outcome: 'copied', size: put.size };
}

/** Copies every blob under the prefix; one blob's failure does not stop the others. */
export async function copyBlobs(
  from: BlobStore,
  to: BlobStore,
  options: CopyOptions = {},
): Promise<CopySummary> {
  // Listed first: the copy may take long, and a listing is cheap to take whole.
  const keys: string[] = [];
  for await (const key of from.list(options.prefix ?? '')) keys.push(key);
  const summary: CopySummary = { copied: 0, present: 0, failed: [], bytes: 0 };
  for (const [index, key] of keys.entries()) {
    options.signal?.throwIfAborted();
    let blob: CopiedBlob;
    try {
      blob = await copyOne(from, to, key);
    } catch (err) {
      blob = { key, outcome: 'failed', size: 0, error: (err as Error).message };
    }
    if (blob.outcome === 'copied') {
      summary.copied++;
      summary.bytes += blob.size;
    } else if (blob.outcome === 'present') summary.present++;
    else summary.failed.push(blob);
    options.onBlob?.(blob, index, keys.length);
  }
  return summary;
}

/**
 * The package blob sweep: package blobs that no package row owns any more (a delete whose blob
 * removal failed, a crash between writing a blob and recording it) are removed once older than
 * worker.sweepGraceMs. Run by the janitor.
 */
import type { BlobStore } from '../store/blobs/blob-store.ts';
import { sweepBlobs } from '../store/blobs/sweep.ts';
import type { Database } from '../store/db/database.ts';
import type { JobDeps } from './deps.ts';
import type { Sweep } from './janitor.ts';

const PACKAGE_KEY = /^packages\/([^/]+)\//;

export async function sweepPackageBlobs(
  db: Database,
  blobs: BlobStore,
  graceMs: number,
  signal?: AbortSignal,
): Promise<string[]> {
  return sweepBlobs(
    blobs,
    'packages/',
    async (key) => {
      const id = PACKAGE_KEY.exec(key)?.[1];
      if (!id) return false;
      const row = await db.kysely
        .selectFrom('vnf_packages')
        .select('id')
        .where('id', '=', id)
        .executeTakeFirst();
      return row !== undefined;
    },
    { olderThanMs: graceMs, signal },
  );
}

export function packageBlobSweep({ db, blobs, config }: JobDeps): Sweep {
  return {
    name: 'package blob sweep',
    run: (signal) => sweepPackageBlobs(db, blobs, config.worker.sweepGraceMs, signal),
  };
}

/**
 * Storing a package's uploaded content: CREATED → UPLOADING under this process's lease (held
 * while the body streams, so that recovery tells a live upload from an interrupted one), the
 * bytes into the blob store with their digests, then PROCESSING with the onboarding job queued.
 * An upload that does not finish sends the package back to CREATED with the reason, its blob
 * removed. When the lease is lost (the process stalled and recovery ended the upload) the body
 * stops being read and nothing more is written.
 */
import { addAbortSignal, type Readable } from 'node:stream';
import type { ProblemDetails } from '../sol/problem.ts';
import { type BlobStore, BlobStoreUnavailableError } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import { HeldLease } from '../store/queue/lease.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import { beginUpload, failOnboarding, finishUpload, renewPackageLease } from './onboarding.ts';
import { packageBlobKey } from './package-record.ts';

export interface StoreUploadDeps {
  db: Database;
  blobs: BlobStore;
  maxUploadBytes: number;
  leaseMs: number;
}

export interface StoreUploadOptions {
  /** The size the client declared, if any (lets the blob store size its writes). */
  sizeHint?: number;
  /** What the package records as its onboarding failure when storing throws `err`. */
  failureOf: (err: unknown) => ProblemDetails;
}

/** Thrown when the package left UPLOADING while its content streamed in (it was deleted or taken over). */
export class UploadSupersededError extends Error {}

/**
 * Stores `content` as package `id`'s zip; false when the package is no longer CREATED (another
 * upload started). Throws what storing threw (BlobTooLargeError, a read error of `content`,
 * UploadSupersededError) once the package is back to CREATED with `failureOf` that error.
 */
export async function storeUpload(
  deps: StoreUploadDeps,
  id: string,
  content: Readable,
  options: StoreUploadOptions,
): Promise<boolean> {
  const { db, blobs, leaseMs } = deps;
  if (!(await beginUpload(db.kysely, id, PROCESS_OWNER, leaseMs))) return false;
  const lease = new HeldLease(leaseMs, () => renewPackageLease(db.kysely, id, PROCESS_OWNER, leaseMs));
  try {
    const put = await blobs.put(packageBlobKey(id), addAbortSignal(lease.signal, content), {
      maxBytes: deps.maxUploadBytes,
      digests: ['sha-512'],
      // The entries' digests now, while the bytes stream by: onboarding then need not read a
      // large image again to check it against the manifest.
      zipScan: {},
      sizeHint: options.sizeHint,
    });
    if (!(await finishUpload(db.kysely, id, PROCESS_OWNER, put))) {
      throw new UploadSupersededError(`VNF package ${id} changed during the upload.`);
    }
    return true;
  } catch (thrown) {
    const err = lease.lost
      ? new UploadSupersededError(`VNF package ${id} changed during the upload.`)
      : thrown;
    // Stopped before the cleanup ends the job: a renewal then would find the lease gone and
    // abort the request body, resetting the connection before the error is answered.
    lease.stop();
    try {
      // Not failed here when the package was deleted meanwhile: drop what was written anyway.
      if (!(await failOnboarding(db, blobs, id, options.failureOf(err), PROCESS_OWNER))) {
        await blobs.delete(packageBlobKey(id));
      }
    } catch (cleanup) {
      // The package is back to CREATED (its row claims no content) but the store, likely the
      // very thing that failed, did not take the blob's removal: the next upload overwrites it,
      // the package's deletion removes it. The upload's own error is the one to answer with.
      if (!(cleanup instanceof BlobStoreUnavailableError)) throw cleanup;
    }
    throw err;
  } finally {
    lease.stop();
  }
}

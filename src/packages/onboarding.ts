/**
 * The onboarding transitions that touch the job columns: start/finish an upload, queue a
 * URI download, fail (back to CREATED with the reason, blob removed), complete (facts stored,
 * ONBOARDED + ENABLED). Each is one conditional UPDATE, so concurrent requests and workers
 * cannot both win; a worker's end of a job is store/queue's completeJob, fenced by its lease.
 */
import type { Updateable } from 'kysely';
import { emitPackageNotification, packageOnboarded } from '../notify/package-notifications.ts';
import type { ProblemDetails } from '../sol/problem.ts';
import type { BlobStore, PutResult } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import type { VnfPackagesTable } from '../store/db/tables.ts';
import { type Executor, inTransaction } from '../store/db/transaction.ts';
import { beginJob } from '../store/queue/begin.ts';
import { completeJob } from '../store/queue/complete.ts';
import { renewJobLease } from '../store/queue/heartbeat.ts';
import type { JobTable } from '../store/queue/table.ts';
import type { ScannedZip } from '../zip/zip-stream-scan.ts';
import { failure } from './failure.ts';
import { nowIso, packageBlobKey } from './package-record.ts';

/** What a transition sets; `updated_at` and `version` follow every change. */
type PackageChange = Omit<Updateable<VnfPackagesTable>, 'updated_at' | 'version'>;

/**
 * The conditional UPDATE that starts an upload: the row moves only from CREATED. False: another
 * request got there first, or the package is elsewhere.
 */
async function fromCreated(db: Executor, id: string, change: PackageChange): Promise<boolean> {
  const result = await db
    .updateTable('vnf_packages')
    .set((eb) => ({ ...change, updated_at: nowIso(), version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .where('onboarding_state', '=', 'CREATED')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** CREATED → UPLOADING, its job held by this process while the body streams. False: not CREATED. */
export async function beginUpload(
  db: Executor,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  return beginJob(db, PACKAGE_JOBS, id, owner, leaseMs, 'uploading', {
    set: {
      onboarding_state: 'UPLOADING',
      onboarding_failure: null,
      upload_source: JSON.stringify({ kind: 'upload' }),
    } satisfies PackageChange,
    from: { column: 'onboarding_state', states: ['CREATED'] },
  });
}

/** CREATED → UPLOADING with a download job queued. False: not CREATED. */
export async function queueUriUpload(
  db: Executor,
  id: string,
  source: { uri: string; sealedCredentials?: string },
): Promise<boolean> {
  return fromCreated(db, id, {
    onboarding_state: 'UPLOADING',
    job_state: 'queued',
    lease_owner: null,
    lease_until: null,
    attempts: 0,
    onboarding_failure: null,
    upload_source: JSON.stringify({ kind: 'uri', ...source }),
  });
}

/**
 * The package table as a job queue: the package row is its onboarding job. A running job whose
 * lease expired (its worker died) may be claimed again: it starts over. A streamed upload holds
 * its lease in the uploading state.
 */
export const PACKAGE_JOBS: JobTable = {
  table: 'vnf_packages',
  key: 'id',
  leasedStates: ['uploading', 'running'],
  reclaimExpired: true,
  versioned: true,
};

/** A job's end that moves the package from `from` to `set`, fenced by `owner`'s lease. */
function endJob(
  db: Executor,
  id: string,
  owner: string,
  from: readonly string[],
  set: PackageChange,
): Promise<boolean> {
  return completeJob(db, PACKAGE_JOBS, id, owner, {
    set,
    from: { column: 'onboarding_state', states: from },
  });
}

/** Extends the lease on a package's upload or onboarding job; false when `owner` lost it. */
export function renewPackageLease(
  db: Executor,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  return renewJobLease(db, PACKAGE_JOBS, id, owner, leaseMs);
}

/**
 * What the onboarding job keeps from the upload in the row's `upload_source` once the content
 * is stored: the digests of the zip's entries computed while it streamed, if any.
 */
export interface UploadedContent {
  kind: 'uploaded';
  zipScan?: ScannedZip;
}

/** The entry digests an upload recorded for its job (none for rows written otherwise). */
export function uploadedZipScan(uploadSource: string | null): ScannedZip | undefined {
  if (!uploadSource) return undefined;
  try {
    const source = JSON.parse(uploadSource) as Partial<UploadedContent>;
    return source.kind === 'uploaded' && Array.isArray(source.zipScan?.entries) ? source.zipScan : undefined;
  } catch {
    return undefined;
  }
}

/** UPLOADING → PROCESSING with the content's facts; the onboarding job is queued. */
export async function finishUpload(
  db: Executor,
  id: string,
  owner: string,
  put: PutResult,
): Promise<boolean> {
  const uploaded: UploadedContent = { kind: 'uploaded', ...(put.zipScan ? { zipScan: put.zipScan } : {}) };
  // The upload's job completes and queues the package's validation.
  return endJob(db, id, owner, ['UPLOADING'], {
    onboarding_state: 'PROCESSING',
    job_state: 'queued',
    upload_source: JSON.stringify(uploaded),
    checksum: JSON.stringify({ algorithm: 'sha-512', hash: put.digests['sha-512'] }),
    package_size: put.size,
  });
}

/**
 * The job ends with the package back to CREATED with the reason, every extracted fact cleared
 * and the blob removed; only if `owner` still holds the job (a takeover wins).
 */
export async function failOnboarding(
  db: Database,
  blobs: BlobStore,
  id: string,
  problem: ProblemDetails,
  owner: string,
): Promise<boolean> {
  const failed = await endJob(db.kysely, id, owner, ['UPLOADING', 'PROCESSING'], {
    onboarding_state: 'CREATED',
    operational_state: 'DISABLED',
    upload_source: null,
    onboarding_failure: JSON.stringify(problem),
    checksum: null,
    package_size: null,
  });
  if (failed) await blobs.delete(packageBlobKey(id));
  return failed;
}

export interface OnboardedFacts {
  vnfdId: string;
  vnfProvider: string;
  vnfProductName: string;
  vnfSoftwareVersion: string;
  vnfdVersion: string;
  softwareImages: unknown[];
  additionalArtifacts: unknown[];
  entryDefinitions: string;
  vnfdModel: unknown;
  files: unknown;
  manifestFile?: string;
  signingCertificate?: string;
}

/**
 * PROCESSING → ONBOARDED + ENABLED. A vnfdId already onboarded in the project fails the
 * onboarding instead (the partial unique index is the last word under concurrency).
 */
export async function completeOnboarding(
  db: Database,
  blobs: BlobStore,
  id: string,
  owner: string,
  facts: OnboardedFacts,
): Promise<'onboarded' | 'duplicate' | 'lost'> {
  const row = await db.kysely
    .selectFrom('vnf_packages')
    .select(['project_id', 'usage_state'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return 'lost';
  /** Another package of the project with this vnfdId. */
  const holder = () =>
    db.kysely
      .selectFrom('vnf_packages')
      .select(['id'])
      .where('project_id', '=', row.project_id)
      .where('vnfd_id', '=', facts.vnfdId)
      .where('id', '!=', id)
      .executeTakeFirst();
  const other = await holder();
  const duplicate = (otherId: string | undefined) =>
    failure(
      409,
      `vnfdId ${facts.vnfdId} is already onboarded in this project by VNF package ${otherId ?? '(another package)'}.`,
      {
        vnfdId: facts.vnfdId,
        ...(otherId ? { otherVnfPkgId: otherId } : {}),
      },
    );
  if (other) {
    await failOnboarding(db, blobs, id, duplicate(other.id), owner);
    return 'duplicate';
  }
  try {
    // The update and its notifications commit together (outbox).
    return await inTransaction(db, async (trx) => {
      const won = await endJob(trx, id, owner, ['PROCESSING'], {
        onboarding_state: 'ONBOARDED',
        operational_state: 'ENABLED',
        upload_source: null,
        onboarding_failure: null,
        vnfd_id: facts.vnfdId,
        vnf_provider: facts.vnfProvider,
        vnf_product_name: facts.vnfProductName,
        vnf_software_version: facts.vnfSoftwareVersion,
        vnfd_version: facts.vnfdVersion,
        software_images: JSON.stringify(facts.softwareImages),
        additional_artifacts: JSON.stringify(facts.additionalArtifacts),
        entry_definitions: facts.entryDefinitions,
        vnfd_model: JSON.stringify(facts.vnfdModel),
        artifact_paths: JSON.stringify(facts.files),
        manifest_file: facts.manifestFile ?? null,
        signing_certificate: facts.signingCertificate ?? null,
      });
      if (!won) return 'lost';
      await emitPackageNotification(
        trx,
        row.project_id,
        packageOnboarded({
          vnfPkgId: id,
          vnfdId: facts.vnfdId,
          vnfProvider: facts.vnfProvider,
          vnfProductName: facts.vnfProductName,
          vnfSoftwareVersion: facts.vnfSoftwareVersion,
          vnfdVersion: facts.vnfdVersion,
          operationalState: 'ENABLED',
          usageState: row.usage_state,
        }),
      );
      return 'onboarded' as const;
    });
  } catch (err) {
    // A concurrent onboarding of the same vnfdId won the unique index.
    const again = await holder();
    if (!again) throw err;
    await failOnboarding(db, blobs, id, duplicate(again.id), owner);
    return 'duplicate';
  }
}

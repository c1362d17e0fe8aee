/**
 * The onboarding worker: claims package jobs (a URI download, or the CSAR validation) and
 * recovers what dead processes left: an interrupted streamed upload → CREATED with
 * "interrupted"; an expired download or validation lease → the job runs again (up to
 * MAX_ATTEMPTS). A download ends by queueing the validation, which the next look claims. Work
 * whose lease is lost stops (the download's stream is destroyed); at shutdown it goes back to
 * the queue.
 */
import { readUploadedPackage } from '../packages/extract-facts.ts';
import { failure, INTERRUPTED } from '../packages/failure.ts';
import {
  completeOnboarding,
  failOnboarding,
  finishUpload,
  PACKAGE_JOBS,
  renewPackageLease,
  uploadedZipScan,
} from '../packages/onboarding.ts';
import { packageBlobKey } from '../packages/package-record.ts';
import { claimableJobs, claimJob, claimJobs } from '../store/queue/claim.ts';
import { failJob } from '../store/queue/fail.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import { abandonedJobs, takeOverJob } from '../store/queue/take-over.ts';
import type { JobDeps } from './deps.ts';
import { downloadPackage, type UriSource } from './download-package.ts';
import type { Job, Worker } from './runner.ts';

const MAX_ATTEMPTS = 3;
const CONCURRENCY = 4;
const owner = PROCESS_OWNER;

export function onboardingWorker(deps: JobDeps): Worker {
  const { db, blobs, logger, config, box } = deps;
  const leaseMs = config.worker.leaseMs;
  const fail = (id: string, status: number, detail: string, extra: Record<string, unknown> = {}) =>
    failOnboarding(db, blobs, id, failure(status, detail, extra), owner);
  /** The job stops unfinished: back to the queue at shutdown (a no-op when the lease was lost). */
  const handBack = (id: string) => failJob(db.kysely, PACKAGE_JOBS, id, owner);

  async function run(job: Job): Promise<void> {
    const { id, signal } = job;
    try {
      const row = await db.kysely
        .selectFrom('vnf_packages')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.lease_owner !== owner) return;
      if (row.attempts > MAX_ATTEMPTS) {
        await fail(
          id,
          500,
          `Onboarding was attempted ${MAX_ATTEMPTS} times without finishing; upload the package again.`,
        );
        return;
      }
      const key = packageBlobKey(id);
      if (row.onboarding_state === 'UPLOADING') {
        const source = JSON.parse(row.upload_source ?? '{}') as UriSource;
        if (source.kind !== 'uri') return;
        let put: Awaited<ReturnType<typeof downloadPackage>>;
        try {
          put = await downloadPackage(config, box, blobs, key, source, signal);
        } catch (err) {
          if (signal.aborted) {
            await handBack(id);
            return;
          }
          const e = err as { code?: string; message: string; name?: string };
          const status = e.name === 'BlobTooLargeError' || e.code === 'DOWNLOAD_TOO_LARGE' ? 413 : 502;
          const detail = `The package could not be downloaded from ${redact(source.uri)}: ${e.message}`;
          await fail(id, status, detail, { ...(e.code ? { code: e.code } : {}) });
          return;
        }
        // The validation is queued: the runner's next look claims it.
        await finishUpload(db.kysely, id, owner, put);
        return;
      }
      if (row.onboarding_state !== 'PROCESSING') return;
      const path = await blobs.localFile(key);
      const read = await readUploadedPackage(path, config.packages, uploadedZipScan(row.upload_source));
      if (signal.aborted) {
        await handBack(id);
        return;
      }
      if (!read.ok) {
        await failOnboarding(db, blobs, id, read.problem, owner);
        logger.info({ vnfPkgId: id, reason: read.problem.detail }, 'package onboarding failed');
        return;
      }
      const outcome = await completeOnboarding(db, blobs, id, owner, read.facts);
      logger.info({ vnfPkgId: id, vnfdId: read.facts.vnfdId, outcome }, 'package onboarding finished');
    } catch (err) {
      if (signal.aborted) {
        await handBack(id).catch(() => {});
        return;
      }
      logger.error({ err, vnfPkgId: id }, 'package onboarding crashed');
      await fail(id, 500, `Onboarding failed unexpectedly: ${(err as Error).message}`).catch(() => {});
    }
  }

  return {
    name: 'onboarding worker',
    concurrency: CONCURRENCY,
    stopGraceMs: config.server.shutdownTimeoutMs,
    // A streamed upload whose process stopped heartbeating: its body is gone for good.
    recover: async () => {
      for (const { id } of await abandonedJobs(db.kysely, PACKAGE_JOBS, 'uploading')) {
        if (!(await takeOverJob(db.kysely, PACKAGE_JOBS, id, 'uploading', owner, leaseMs))) continue;
        if (await failOnboarding(db, blobs, id, failure(500, INTERRUPTED), owner)) {
          logger.warn({ vnfPkgId: id }, 'package upload interrupted: back to CREATED');
        }
      }
    },
    claimable: (limit) => claimableJobs(db.kysely, PACKAGE_JOBS, limit, db.dialect === 'postgres'),
    claim: (id) => claimJob(db.kysely, PACKAGE_JOBS, id, owner, leaseMs),
    claimMany: (limit) =>
      claimJobs(db.kysely, PACKAGE_JOBS, limit, owner, leaseMs, db.dialect === 'postgres'),
    renew: (id) => renewPackageLease(db.kysely, id, owner, leaseMs),
    run,
  };
}

/** A URI without its userinfo, for messages. */
function redact(uri: string): string {
  try {
    const u = new URL(uri);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(invalid URI)';
  }
}

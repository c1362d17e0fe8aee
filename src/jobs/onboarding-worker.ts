/**
 * The onboarding worker: claims package jobs (a URI download and/or the CSAR validation),
 * heartbeats the lease while working, and recovers what dead processes left: an interrupted
 * streamed upload → CREATED with "interrupted"; an expired PROCESSING/download lease → the job
 * runs again (up to MAX_ATTEMPTS). Polls at worker.pollIntervalMs, and wakes at once when
 * this process queues a job.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import { readUploadedPackage } from '../packages/extract-facts.ts';
import { failure, INTERRUPTED } from '../packages/failure.ts';
import {
  completeOnboarding,
  failOnboarding,
  finishUpload,
  renewPackageLease,
  uploadedZipScan,
} from '../packages/onboarding.ts';
import { packageBlobKey } from '../packages/package-record.ts';
import type { SealedBox } from '../security/sealed-box.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import type { Database } from '../store/db/database.ts';
import { HeldLease } from '../store/queue/lease.ts';
import { PROCESS_OWNER } from '../store/queue/owner.ts';
import { downloadPackage, type UriSource } from './download-package.ts';
import { claimablePackageJobs, claimPackageJob, interruptedUploads, takeOverUpload } from './package-jobs.ts';
import { JobRunner } from './runner.ts';

const MAX_ATTEMPTS = 3;
const CONCURRENCY = 4;

export interface WorkerDeps {
  config: Config;
  db: Database;
  blobs: BlobStore;
  box: SealedBox;
  logger: Logger;
}

export class OnboardingWorker {
  readonly owner = PROCESS_OWNER;
  readonly #deps: WorkerDeps;
  readonly #runner: JobRunner;

  constructor(deps: WorkerDeps) {
    this.#deps = deps;
    const { db, blobs, logger, config } = deps;
    const leaseMs = config.worker.leaseMs;
    this.#runner = new JobRunner(
      {
        recover: async () => {
          for (const id of await interruptedUploads(db)) {
            if (!(await takeOverUpload(db, id, this.owner, leaseMs))) continue;
            if (await failOnboarding(db, blobs, id, failure(500, INTERRUPTED), this.owner)) {
              logger.warn({ vnfPkgId: id }, 'package upload interrupted: back to CREATED');
            }
          }
        },
        claimable: (limit) => claimablePackageJobs(db, limit),
        claim: (id) => claimPackageJob(db, id, this.owner, leaseMs),
        run: (id) => this.#run(id),
      },
      {
        concurrency: CONCURRENCY,
        intervalMs: config.worker.pollIntervalMs,
        logger,
        name: 'onboarding worker',
      },
    );
  }

  start(): void {
    this.#runner.start();
  }

  /** Looks for work now (after a job was queued in this process). */
  wake(): void {
    this.#runner.wake();
  }

  /** Stops claiming, and waits for the jobs in progress. */
  async stop(): Promise<void> {
    await this.#runner.stop();
  }

  async #run(id: string): Promise<void> {
    const { db, blobs, logger, config, box } = this.#deps;
    const leaseMs = config.worker.leaseMs;
    const hold = () => new HeldLease(leaseMs, () => renewPackageLease(db.kysely, id, this.owner, leaseMs));
    let lease = hold();
    const fail = (status: number, detail: string, extra: Record<string, unknown> = {}) =>
      failOnboarding(db, blobs, id, failure(status, detail, extra), this.owner);
    try {
      const row = await db.kysely
        .selectFrom('vnf_packages')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row || row.lease_owner !== this.owner) return;
      if (row.attempts > MAX_ATTEMPTS) {
        await fail(
          500,
          `Onboarding was attempted ${MAX_ATTEMPTS} times without finishing; upload the package again.`,
        );
        return;
      }
      const key = packageBlobKey(id);
      let zipScan = uploadedZipScan(row.upload_source);
      if (row.onboarding_state === 'UPLOADING') {
        const source = JSON.parse(row.upload_source ?? '{}') as UriSource;
        if (source.kind !== 'uri') return;
        let put: Awaited<ReturnType<typeof downloadPackage>>;
        try {
          put = await downloadPackage(config, box, blobs, key, source);
        } catch (err) {
          const e = err as { code?: string; message: string; name?: string };
          const status = e.name === 'BlobTooLargeError' || e.code === 'DOWNLOAD_TOO_LARGE' ? 413 : 502;
          await fail(status, `The package could not be downloaded from ${redact(source.uri)}: ${e.message}`, {
            ...(e.code ? { code: e.code } : {}),
          });
          return;
        }
        lease.stop();
        if (!(await finishUpload(db.kysely, id, this.owner, put))) return;
        zipScan = put.zipScan;
        // finishUpload released the lease and queued the job: take it again to validate now.
        if (!(await claimPackageJob(db, id, this.owner, leaseMs))) return;
        lease = hold();
      } else if (row.onboarding_state !== 'PROCESSING') {
        return;
      }
      const path = await blobs.localFile(key);
      const read = await readUploadedPackage(path, config.packages, zipScan);
      if (!read.ok) {
        await failOnboarding(db, blobs, id, read.problem, this.owner);
        logger.info({ vnfPkgId: id, reason: read.problem.detail }, 'package onboarding failed');
        return;
      }
      const outcome = await completeOnboarding(db, blobs, id, this.owner, read.facts);
      logger.info({ vnfPkgId: id, vnfdId: read.facts.vnfdId, outcome }, 'package onboarding finished');
    } catch (err) {
      logger.error({ err, vnfPkgId: id }, 'package onboarding crashed');
      await fail(500, `Onboarding failed unexpectedly: ${(err as Error).message}`).catch(() => {});
    } finally {
      lease.stop();
    }
  }
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

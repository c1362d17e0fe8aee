/**
 * The periodic sweep: package blobs that no package row owns any more (a delete whose blob
 * removal failed, a crash between writing a blob and recording it) are removed once older than
 * worker.sweepGraceMs. Idempotent, so several replicas may run it.
 */
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import type { BlobStore } from '../store/blobs/blob-store.ts';
import { sweepBlobs } from '../store/blobs/sweep.ts';
import type { Database } from '../store/db/database.ts';

const PACKAGE_KEY = /^packages\/([^/]+)\//;

export async function sweepPackageBlobs(db: Database, blobs: BlobStore, graceMs: number): Promise<string[]> {
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
    { olderThanMs: graceMs },
  );
}

export class PackageSweeper {
  readonly #deps: { config: Config; db: Database; blobs: BlobStore; logger: Logger };
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(deps: { config: Config; db: Database; blobs: BlobStore; logger: Logger }) {
    this.#deps = deps;
  }

  start(): void {
    const { config } = this.#deps;
    this.#timer = setInterval(() => this.#sweep(), config.worker.sweepIntervalMs);
    this.#timer.unref();
  }

  #sweep(): void {
    if (this.#running) return;
    const { config, db, blobs, logger } = this.#deps;
    this.#running = sweepPackageBlobs(db, blobs, config.worker.sweepGraceMs)
      .then((deleted) => {
        if (deleted.length) logger.info({ deleted }, 'swept leftover package blobs');
      })
      .catch((err) => logger.error({ err }, 'package blob sweep failed'))
      .finally(() => {
        this.#running = undefined;
      });
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}

/**
 * The composition root: every service built once from the configuration, in dependency order
 * (keys, database and its migrations, blob store, VIM drivers and access, engine ports, workers),
 * with one start/stop lifecycle. The HTTP server, the command line and the workers receive these
 * services; none of them builds its own.
 */
import type { Logger } from 'pino';
import type { Config } from './config/load.ts';
import { createNfvo, type NfvoSetup } from './grant/create-nfvo.ts';
import { DeliveryWorker } from './jobs/delivery-worker.ts';
import { FmWorkers } from './jobs/fm-workers.ts';
import { OnboardingWorker } from './jobs/onboarding-worker.ts';
import { OpRunner } from './jobs/op-runner.ts';
import { PackageSweeper } from './jobs/package-sweep.ts';
import { createEngineDeps } from './lcm/engine-factory.ts';
import type { DeliveryMetrics } from './notify/delivery/metrics.ts';
import { loadEncryptionKey } from './security/encryption-key.ts';
import { SealedBox } from './security/sealed-box.ts';
import { ServerKeys } from './security/server-keys.ts';
import type { BlobStore } from './store/blobs/blob-store.ts';
import { createBlobStore } from './store/blobs/index.ts';
import { type Database, openDatabase } from './store/db/database.ts';
import { migrate } from './store/db/migrate.ts';
import { createVimAccess, type VimAccess } from './vims/access.ts';
import { prepareVimDrivers, type VimDriverTable } from './vims/drivers/index.ts';

/** all: API and workers; api: an API replica leaving the jobs to workers; worker: jobs only. */
export type Role = 'all' | 'api' | 'worker';

export interface Services {
  config: Config;
  logger: Logger;
  db: Database;
  /** Secrets at rest. */
  box: SealedBox;
  keys: ServerKeys;
  /** Package zips and other large objects. */
  blobs: BlobStore;
  /** The VIM drivers, prepared once. */
  vimDrivers: VimDriverTable;
  /** VIM resolution and drivers, shared by the LCM routes and the engine. */
  vims: VimAccess;
  /** Onboarding jobs: a wake-up for the local worker (no-op without one). */
  onboarding: { wake(): void };
  /** The NFVO that grants the LCM operations (nfvo.mode), and the external one's client. */
  nfvo: NfvoSetup;
}

/** What only the listening server knows: the delivery worker needs it. */
export interface StartContext {
  deliveryMetrics: DeliveryMetrics;
  /** Base of the absolute `_links` hrefs (server.publicUrl, or the server's own URL). */
  linkBase: string;
}

export interface Runtime {
  role: Role;
  services: Services;
  /** Starts the role's workers. */
  start(context: StartContext): void;
  /** Stops the workers (in reverse order, each draining), then closes the database. Once. */
  stop(): Promise<void>;
}

interface Worker {
  start(): void;
  stop(): Promise<void>;
}

export async function createRuntime(
  config: Config,
  options: { role: Role; logger: Logger },
): Promise<Runtime> {
  const { role, logger } = options;
  const box = new SealedBox(loadEncryptionKey(config.security));
  const db = openDatabase(config.database);
  let nfvo: NfvoSetup | undefined;
  try {
    await migrate(db);
    const keys = new ServerKeys(db, box);
    const blobs = createBlobStore(config);
    const vimDrivers = await prepareVimDrivers(config, { db });
    const vims = createVimAccess({ db, box, config, drivers: vimDrivers });
    // Roles all and worker run the jobs (onboarding, sweeps, LCM operations, delivery); an
    // api-only replica leaves them to workers.
    const runsJobs = role !== 'api';
    const onboarding = runsJobs ? new OnboardingWorker({ config, db, blobs, box, logger }) : undefined;
    nfvo = createNfvo(config, box, { db, blobs, wakeOnboarding: () => onboarding?.wake() });
    const sweeper = runsJobs ? new PackageSweeper({ config, db, blobs, logger }) : undefined;
    const fm = runsJobs ? new FmWorkers({ config, db, box, vims, logger }) : undefined;
    const lcm = runsJobs
      ? new OpRunner(createEngineDeps({ config, db, box, blobs, logger, vims, nfvo: nfvo.nfvo }))
      : undefined;
    const services: Services = {
      config,
      logger,
      db,
      box,
      keys,
      blobs,
      vimDrivers,
      vims,
      onboarding: onboarding ?? { wake() {} },
      nfvo,
    };
    const started: Worker[] = [];
    let stopping: Promise<void> | undefined;
    return {
      role,
      services,
      start({ deliveryMetrics, linkBase }) {
        const delivery = runsJobs
          ? new DeliveryWorker({ config, db, box, logger, metrics: deliveryMetrics, linkBase })
          : undefined;
        // Stopped in reverse: the LCM operations first (their notifications reach the outbox),
        // then delivery, sweeps and onboarding.
        for (const worker of [onboarding, sweeper, delivery, lcm, fm]) {
          if (!worker) continue;
          worker.start();
          started.push(worker);
        }
      },
      stop() {
        stopping ??= (async () => {
          try {
            for (const worker of [...started].reverse()) await worker.stop();
          } finally {
            nfvo?.close();
            await db.close();
          }
        })();
        return stopping;
      },
    };
  } catch (err) {
    nfvo?.close();
    await db.close();
    throw err;
  }
}

/**
 * The composition root: every service built once from the configuration, in dependency order
 * (keys, database and its migrations, blob store, VIM drivers and access, the NFVO, the callback
 * client, engine ports, the workers of jobs/index.ts and the janitor), with one start/stop
 * lifecycle. The HTTP server, the command line and the workers receive these
 * services; none of them builds its own.
 */
import type { Logger } from 'pino';
import type { Config } from './config/load.ts';
import { createNfvo, type NfvoSetup } from './grant/create-nfvo.ts';
import { LOOPS, SWEEPS, WORKERS } from './jobs/index.ts';
import { Janitor } from './jobs/janitor.ts';
import { replicaPresence, thisReplica } from './jobs/replica-presence.ts';
import { JobRunner } from './jobs/runner.ts';
import { createEngineDeps } from './lcm/engine-factory.ts';
import { OutboundPolicy } from './net/address-policy.ts';
import { CallbackClient } from './notify/delivery/callback-client.ts';
import type { DeliveryMetrics } from './notify/delivery/metrics.ts';
import { openRuntimeDatabase } from './runtime-database.ts';
import { loadEncryptionKey } from './security/encryption-key.ts';
import { SealedBox } from './security/sealed-box.ts';
import { ServerKeys } from './security/server-keys.ts';
import type { BlobStore } from './store/blobs/blob-store.ts';
import { createBlobStore } from './store/blobs/index.ts';
import type { Database } from './store/db/database.ts';
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
  /** Calls to subscribers' callbacks (deliveries and callback tests), through the outbound policy. */
  callbacks: CallbackClient;
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
  /** Starts the role's workers and the janitor. */
  start(context: StartContext): void;
  /** The names of what start() started (workers, janitor), in start order. */
  readonly running: readonly string[];
  /** Stops the workers (in reverse order, each draining), then closes the database. Once. */
  stop(): Promise<void>;
}

interface Started {
  readonly name: string;
  stop(): Promise<void>;
}

export async function createRuntime(
  config: Config,
  options: { role: Role; logger: Logger },
): Promise<Runtime> {
  const { role, logger } = options;
  const box = new SealedBox(loadEncryptionKey(config.security));
  const { db, migrated } = await openRuntimeDatabase(config);
  if (migrated.newer.length > 0) {
    // A rolling upgrade under way: a newer release's replicas already expanded the schema.
    logger.info({ newer: migrated.newer }, 'database schema is newer than this release; using it as it is');
  }
  const callbacks = new CallbackClient(OutboundPolicy.fromConfig(config), config.notify.requestTimeoutMs);
  let nfvo: NfvoSetup | undefined;
  try {
    const keys = new ServerKeys(db, box);
    const blobs = createBlobStore(config);
    const vimDrivers = await prepareVimDrivers(config, { db, blobs });
    const vims = createVimAccess({ db, box, config, drivers: vimDrivers });
    // Roles all and worker run the jobs (onboarding, sweeps, LCM operations, delivery, fault
    // management); an api-only replica leaves them to workers.
    const runsJobs = role !== 'api';
    let onboarding: JobRunner | undefined;
    const setup = createNfvo(config, box, { db, blobs, wakeOnboarding: () => onboarding?.wake() });
    nfvo = setup;
    const services: Services = {
      config,
      logger,
      db,
      box,
      keys,
      blobs,
      vimDrivers,
      vims,
      callbacks,
      onboarding: { wake: () => onboarding?.wake() },
      nfvo: setup,
    };
    const started: Started[] = [];
    // This process in the replica registry, whatever its role: stopped last, after its jobs.
    const presence = replicaPresence(db, thisReplica(role), logger);
    let present = false;
    let stopping: Promise<void> | undefined;
    return {
      role,
      services,
      get running() {
        return started.map((s) => s.name);
      },
      start({ deliveryMetrics, linkBase }) {
        if (!present) presence.start();
        present = true;
        if (!runsJobs || started.length > 0) return;
        const engine = createEngineDeps({ config, db, box, blobs, logger, vims, nfvo: setup.nfvo });
        const deps = { config, logger, db, box, blobs, vims, engine, callbacks, deliveryMetrics, linkBase };
        const { pollIntervalMs: intervalMs, leaseMs, sweepIntervalMs } = config.worker;
        const janitor = new Janitor(
          SWEEPS.map((sweep) => sweep(deps)),
          { intervalMs: sweepIntervalMs, logger },
        );
        janitor.start();
        started.push(janitor);
        for (const [key, worker] of Object.entries(WORKERS)) {
          const runner = new JobRunner(worker(deps), { intervalMs, leaseMs, logger });
          if (key === 'onboarding') onboarding = runner;
          runner.start();
          started.push(runner);
        }
        for (const loops of LOOPS) {
          const looking = loops(deps);
          looking.start();
          started.push(looking);
        }
      },
      stop() {
        stopping ??= (async () => {
          try {
            // In reverse: the LCM operations first (their notifications reach the outbox).
            for (const job of [...started].reverse()) await job.stop();
            if (present) await presence.stop();
          } finally {
            nfvo?.close();
            callbacks.close();
            await db.close();
          }
        })();
        return stopping;
      },
    };
  } catch (err) {
    nfvo?.close();
    callbacks.close();
    await db.close();
    throw err;
  }
}

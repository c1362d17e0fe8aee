/**
 * A running Bosun server: opens and migrates the database, builds the application for the
 * role, listens, and shuts down gracefully (stop accepting, finish in-flight requests within
 * server.shutdownTimeoutMs, close the database).
 */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import { DeliveryWorker } from '../jobs/delivery-worker.ts';
import { OnboardingWorker } from '../jobs/onboarding-worker.ts';
import { OpRunner } from '../jobs/op-runner.ts';
import { PackageSweeper } from '../jobs/package-sweep.ts';
import { createEngineDeps } from '../lcm/engine-factory.ts';
import { createLogger } from '../logging.ts';
import { linkBase } from '../notify/delivery/links.ts';
import { loadEncryptionKey } from '../security/encryption-key.ts';
import { SealedBox } from '../security/sealed-box.ts';
import { ServerKeys } from '../security/server-keys.ts';
import { createBlobStore } from '../store/blobs/index.ts';
import { type Database, openDatabase } from '../store/db/database.ts';
import { migrate } from '../store/db/migrate.ts';
import { prepareVimDrivers } from '../vims/drivers/index.ts';
import { type AppContext, buildApp, type RouteRegistrar } from './app.ts';
import { createAuth } from './auth/index.ts';
import { registerDeliveryMetrics } from './ops/delivery-metrics.ts';
import { registerInfraAdmin } from './routes/admin/infra.ts';
import { registerAdminSubscriptions } from './routes/admin/subscriptions.ts';
import { registerVnffm } from './routes/vnffm/index.ts';
import { registerVnflcm } from './routes/vnflcm/index.ts';
import { registerVnfpkgm } from './routes/vnfpkgm/index.ts';
import { registerVnfpm } from './routes/vnfpm/index.ts';
import { PagingMarkers } from './sol013/paging.ts';

export type Role = 'all' | 'api' | 'worker';

export interface StartOptions {
  role?: Role;
  /** Extra routes (tests and benchmarks mount fixtures through the real machinery). */
  registrars?: RouteRegistrar[];
  logger?: Logger;
}

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  /** http://host:port of the listening socket. */
  url: string;
  close(): Promise<void>;
}

/** Opens the database, applies migrations and builds the shared services. */
export async function openRuntime(
  config: Config,
): Promise<{ db: Database; keys: ServerKeys; box: SealedBox }> {
  const box = new SealedBox(loadEncryptionKey(config.security));
  const db = openDatabase(config.database);
  try {
    await migrate(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  return { db, keys: new ServerKeys(db, box), box };
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const role = options.role ?? 'all';
  const logger = options.logger ?? createLogger(config.log.level);
  const { db, keys, box } = await openRuntime(config);
  const readiness = { draining: false };
  let app: FastifyInstance;
  let context: AppContext;
  let worker: OnboardingWorker | undefined;
  let sweeper: PackageSweeper | undefined;
  let delivery: DeliveryWorker | undefined;
  let lcm: OpRunner | undefined;
  let url: string;
  try {
    const vimDrivers = await prepareVimDrivers(config, { db });
    const auth = await createAuth(config, db, keys);
    const paging = await PagingMarkers.fromKeys(keys);
    const blobs = createBlobStore(config);
    // Roles all and worker run the onboarding jobs; an api-only replica leaves them to workers.
    worker = role === 'api' ? undefined : new OnboardingWorker({ config, db, blobs, box, logger });
    sweeper = role === 'api' ? undefined : new PackageSweeper({ config, db, blobs, logger });
    // Roles all and worker run the LCM operations (the op occ rows are the jobs).
    lcm =
      role === 'api'
        ? undefined
        : new OpRunner(createEngineDeps({ config, db, box, blobs, logger, drivers: vimDrivers }));
    const onboarding = worker ?? { wake() {} };
    context = {
      config,
      db,
      keys,
      paging,
      authenticator: auth.authenticator,
      logger,
      readiness,
      blobs,
      box,
      vimDrivers,
      onboarding,
    };
    // The worker role serves only the operations endpoints (health, metrics).
    const apis = [registerVnfpkgm, registerVnflcm, registerVnffm, registerVnfpm];
    const admin = [registerAdminSubscriptions, registerInfraAdmin];
    const registrars =
      role === 'worker' ? [] : [auth.routes, ...apis, ...admin, ...(options.registrars ?? [])];
    app = await buildApp(context, registrars);
    await app.listen({ port: config.server.port, host: config.server.bind });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.server.port;
    const host = config.server.bind.includes(':') ? `[${config.server.bind}]` : config.server.bind;
    url = `http://${host}:${port}`;
    // Every role reports the queue depths; roles all and worker deliver the notifications.
    const metrics = registerDeliveryMetrics(app.metrics, db);
    if (role !== 'api') {
      const base = linkBase(config.server.publicUrl, url);
      delivery = new DeliveryWorker({ config, db, box, logger, metrics, linkBase: base });
    }
    worker?.start();
    sweeper?.start();
    delivery?.start();
    lcm?.start();
  } catch (err) {
    await lcm?.stop();
    await delivery?.stop();
    await sweeper?.stop();
    await worker?.stop();
    await db.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      readiness.draining = true;
      const timer = setTimeout(() => app.server.closeAllConnections(), config.server.shutdownTimeoutMs);
      try {
        await app.close();
      } finally {
        clearTimeout(timer);
        await lcm?.stop();
        await delivery?.stop();
        await sweeper?.stop();
        await worker?.stop();
        await db.close();
      }
    })();
    return closing;
  };
  logger.info({ url, role, database: db.dialect, auth: config.auth.mode }, 'bosun listening');
  return { app, context, url, close };
}

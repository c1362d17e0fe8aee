/**
 * A running Bosun server: the runtime's services (src/runtime.ts) behind the application for
 * the role; listens, starts the workers, and shuts down gracefully (answer not-ready and keep
 * serving for server.drainMs, stop accepting, finish in-flight requests within
 * server.shutdownTimeoutMs, then stop the runtime).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import { thisReplica } from '../jobs/replica-presence.ts';
import { createLogger } from '../logging.ts';
import { linkBase } from '../notify/delivery/links.ts';
import { createRuntime, type Role } from '../runtime.ts';
import { type AppContext, buildApp, type RouteRegistrar } from './app.ts';
import { createAuth } from './auth/index.ts';
import { registerConsole } from './console/routes.ts';
import { registerClusterMetrics } from './ops/cluster-metrics.ts';
import { registerDeliveryMetrics } from './ops/delivery-metrics.ts';
import { registerAlarmAdmin } from './routes/admin/alarms.ts';
import { registerInfraAdmin } from './routes/admin/infra.ts';
import { registerStatus } from './routes/admin/status.ts';
import { registerAdminSubscriptions } from './routes/admin/subscriptions.ts';
import { registerVnfdModel } from './routes/admin/vnfd-model.ts';
import { registerAlertWebhooks } from './routes/alert/index.ts';
import { registerTackerLegacyVims } from './routes/tacker-legacy/vims.ts';
import { registerTimeline } from './routes/timeline/index.ts';
import { registerVnffm } from './routes/vnffm/index.ts';
import { registerVnflcm } from './routes/vnflcm/index.ts';
import { registerVnfpkgm } from './routes/vnfpkgm/index.ts';
import { registerVnfpm } from './routes/vnfpm/index.ts';
import { PagingMarkers } from './sol013/paging.ts';

export type { Role } from '../runtime.ts';

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

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const role = options.role ?? 'all';
  const logger = options.logger ?? createLogger(config.log.level);
  const runtime = await createRuntime(config, { role, logger });
  const { services } = runtime;
  const { db } = services;
  const readiness = { draining: false, closing: false };
  let app: FastifyInstance;
  let context: AppContext;
  let url: string;
  let stopClusterMetrics = () => {};
  try {
    const auth = await createAuth(config, db, services.keys);
    const paging = await PagingMarkers.fromKeys(services.keys);
    context = { ...services, paging, authenticator: auth.authenticator, readiness };
    // The worker role serves only the operations endpoints (health, metrics).
    const apis = [
      registerVnfpkgm,
      registerVnflcm,
      registerVnffm,
      registerVnfpm,
      registerTackerLegacyVims,
      registerAlertWebhooks,
    ];
    const admin = [
      registerAdminSubscriptions,
      registerInfraAdmin,
      registerAlarmAdmin,
      registerTimeline,
      registerVnfdModel,
      registerStatus,
    ];
    const registrars =
      role === 'worker'
        ? []
        : [auth.routes, ...apis, ...admin, registerConsole, ...(options.registrars ?? [])];
    app = await buildApp(context, registrars);
    await app.listen({ port: config.server.port, host: config.server.bind });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.server.port;
    const host = config.server.bind.includes(':') ? `[${config.server.bind}]` : config.server.bind;
    url = `http://${host}:${port}`;
    // Every role reports the queue depths; roles all and worker deliver the notifications.
    const deliveryMetrics = registerDeliveryMetrics(app.metrics, db);
    // Every role names itself and reports the queues' backlogs; workers count their claims.
    stopClusterMetrics = registerClusterMetrics(app.metrics, db, thisReplica(role));
    runtime.start({ deliveryMetrics, linkBase: linkBase(config.server.publicUrl, url) });
  } catch (err) {
    stopClusterMetrics();
    await runtime.stop();
    throw err;
  }
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= (async () => {
      readiness.draining = true;
      // A load balancer learns of the drain from /readyz only at its next checks: keep serving
      // until it has stopped sending, so that no request meets a closed port.
      if (config.server.drainMs > 0 && role !== 'worker') {
        logger.info({ drainMs: config.server.drainMs }, 'draining');
        await delay(config.server.drainMs);
      }
      readiness.closing = true;
      const timer = setTimeout(() => app.server.closeAllConnections(), config.server.shutdownTimeoutMs);
      try {
        await app.close();
      } finally {
        clearTimeout(timer);
        stopClusterMetrics();
        await runtime.stop();
      }
    })();
    return closing;
  };
  logger.info({ url, role, database: db.dialect, auth: config.auth.mode }, 'bosun listening');
  return { app, context, url, close };
}

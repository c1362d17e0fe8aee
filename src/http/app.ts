/**
 * Assembles the HTTP application: the SOL013 hooks every route inherits, authentication,
 * operations endpoints, and the API routes. Callers (server, tests, benchmarks) pass a
 * `register` function to add routes through the same machinery.
 */
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/load.ts';
import type { ServerKeys } from '../security/server-keys.ts';
import type { Database } from '../store/db/database.ts';
import type { Authenticator } from './auth/authenticator.ts';
import { authorize } from './auth/authorize.ts';
import { type Readiness, registerHealth } from './ops/health.ts';
import { registerMetrics } from './ops/metrics.ts';
import { requestIdOf } from './ops/request-id.ts';
import { registerApiVersionRoutes } from './routes/api-versions.ts';
import { checkAccept, checkContentType, registerBodyParsers } from './sol013/content-negotiation.ts';
import { registerErrorHandling } from './sol013/errors.ts';
import type { PagingMarkers } from './sol013/paging.ts';
import { ApiError } from './sol013/problem.ts';
import { checkQueryParams } from './sol013/query-params.ts';
import './sol013/route-config.ts';
import { routePolicy } from './sol013/route-policy.ts';
import { checkVersionHeader, setDefaultVersion } from './sol013/version-header.ts';

export interface AppContext {
  config: Config;
  db: Database;
  keys: ServerKeys;
  paging: PagingMarkers;
  authenticator: Authenticator;
  logger: Logger;
  readiness: Readiness;
}

declare module 'fastify' {
  interface FastifyInstance {
    bosun: AppContext;
  }
}

export type RouteRegistrar = (app: FastifyInstance, ctx: AppContext) => void | Promise<void>;

export async function buildApp(ctx: AppContext, registrars: RouteRegistrar[] = []): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.logger,
    genReqId: requestIdOf,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: config.server.bodyLimit,
    return503OnClosing: true,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: true, allErrors: true } },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 1024 },
  }) as unknown as FastifyInstance;
  app.decorate('bosun', ctx);
  app.decorateRequest('caller', undefined as never);

  registerErrorHandling(app);
  registerBodyParsers(app);

  // One hook running the request-level rules in order (cheaper than a hook each).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    const policy = routePolicy(request);
    setDefaultVersion(policy, reply);
    const query = request.url.indexOf('?');
    if (query >= 0 && request.url.length - query > config.server.maxQueryLength) {
      throw new ApiError(400, `The query string is longer than ${config.server.maxQueryLength} characters.`);
    }
    await authorize(ctx.authenticator, policy, request);
    checkVersionHeader(policy, request, reply);
    checkAccept(policy, request);
  });
  app.addHook('preParsing', checkContentType);
  app.addHook('preValidation', checkQueryParams);

  registerMetrics(app);
  registerHealth(app, ctx.db, ctx.readiness);
  registerApiVersionRoutes(app);
  for (const register of registrars) await register(app, ctx);
  return app;
}

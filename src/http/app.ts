/**
 * Assembles the HTTP application: the SOL013 hooks every route inherits, authentication,
 * operations endpoints, and the API routes. Callers (server, tests, benchmarks) pass a
 * `register` function to add routes through the same machinery.
 */
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Services } from '../runtime.ts';
import { ApiError } from '../sol/problem.ts';
import type { Authenticator } from './auth/authenticator.ts';
import { authorize } from './auth/authorize.ts';
import { CanonicalResponse } from './canonical-headers.ts';
import { registerApiDocs } from './ops/api-docs.ts';
import { type Readiness, registerHealth } from './ops/health.ts';
import { registerMetrics } from './ops/metrics.ts';
import { requestIdOf } from './ops/request-id.ts';
import { AccessLog } from './ops/request-log.ts';
import { registerApiVersionRoutes, trackServedMajors } from './routes/api-versions.ts';
import { PLANNED_RESOURCES } from './routes/planned.ts';
import { checkAccept, checkContentType, registerBodyParsers } from './sol013/content-negotiation.ts';
import { registerErrorHandling } from './sol013/errors.ts';
import type { PagingMarkers } from './sol013/paging.ts';
import { parserErrorHandler, routerErrorHandler } from './sol013/pre-routing.ts';
import { checkQueryParams } from './sol013/query-params.ts';
import './sol013/route-config.ts';
import { type RoutePolicy, routePolicy } from './sol013/route-policy.ts';
import { checkVersionHeader, setDefaultVersion } from './sol013/version-header.ts';

/** The runtime's services (src/runtime.ts) and what the HTTP layer adds to them. */
export interface AppContext extends Services {
  paging: PagingMarkers;
  authenticator: Authenticator;
  readiness: Readiness;
}

declare module 'fastify' {
  interface FastifyInstance {
    bosun: AppContext;
  }
}

export type RouteRegistrar = (app: FastifyInstance, ctx: AppContext) => void | Promise<void>;

const MAX_PARAM_LENGTH = 1024;

const SHUTTING_DOWN = new ApiError(
  503,
  'Bosun is shutting down: send the request again (to another replica, or once it has restarted).',
  { headers: { Connection: 'close' } },
);

export async function buildApp(ctx: AppContext, registrars: RouteRegistrar[] = []): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    loggerInstance: ctx.logger,
    genReqId: requestIdOf,
    logController: new AccessLog(config.log.accessLog),
    bodyLimit: config.server.bodyLimit,
    // Requests arriving while the server drains get a ProblemDetails 503 from the request hook
    // (fastify's own would be plain JSON).
    return503OnClosing: false,
    // No coercion: a request value of the wrong type is a 400, never silently converted
    // (every query and path parameter schema is a string, so those need none either).
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    http: { ServerResponse: CanonicalResponse },
    frameworkErrors: routerErrorHandler(MAX_PARAM_LENGTH),
    clientErrorHandler: parserErrorHandler(ctx.logger, { maxHeaderSize }),
  }) as unknown as FastifyInstance;
  app.decorate('bosun', ctx);
  app.decorateRequest('caller', undefined as never);
  app.decorateRequest('policy', undefined);

  registerErrorHandling(app, PLANNED_RESOURCES);
  registerBodyParsers(app, config.server.maxJsonDepth);

  // One synchronous hook runs the request-level rules in order: a hook each, or async hooks,
  // cost a measurable share of a small request. Only token verification may be asynchronous.
  app.addHook('onRequest', (request, reply, done) => {
    let policy: RoutePolicy;
    const afterAuth = () => {
      checkVersionHeader(policy, request, reply);
      checkAccept(policy, request);
      checkQueryParams(policy, request);
      checkContentType(policy, request);
    };
    try {
      reply.header('X-Request-Id', request.id);
      policy = routePolicy(request);
      setDefaultVersion(policy, reply);
      if (ctx.readiness.closing) throw SHUTTING_DOWN;
      const query = request.url.indexOf('?');
      if (query >= 0 && request.url.length - query > config.server.maxQueryLength) {
        throw new ApiError(
          414,
          `The query string is longer than ${config.server.maxQueryLength} characters; shorten it (e.g. split a long filter over several requests).`,
        );
      }
      const pending = authorize(ctx.authenticator, policy, request);
      if (pending) {
        pending
          .then(() => {
            afterAuth();
            done();
          })
          .catch(done);
        return;
      }
      afterAuth();
      done();
    } catch (err) {
      done(err as Error);
    }
  });

  await registerApiDocs(app);
  registerMetrics(app);
  registerHealth(app, ctx.db, ctx.readiness);
  const servedMajors = trackServedMajors(app);
  for (const register of registrars) await register(app, ctx);
  registerApiVersionRoutes(app, servedMajors());
  return app;
}

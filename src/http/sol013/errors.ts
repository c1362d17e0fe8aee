/**
 * Turns every failure into a ProblemDetails answer: our ApiErrors, fastify's own errors
 * (validation, body size, media type), unknown paths (404), known paths with another method
 * (405 + Allow), an unreachable database (503 + Retry-After: it passes), and unexpected
 * exceptions (500 without a stack, logged with the request id).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { ApiError, PROBLEM_JSON } from '../../sol/problem.ts';
import { isDatabaseUnreachable } from '../../store/db/unreachable.ts';

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function validationDetail(error: FastifyError): string {
  const context = error.validationContext ?? 'request';
  const parts = (error.validation ?? []).slice(0, 5).map((v) => {
    const where = `${context}${v.instancePath.replaceAll('/', '.')}`;
    const params = v.params as Record<string, unknown>;
    if (v.keyword === 'additionalProperties')
      return `${where}: unknown property '${params.additionalProperty}'`;
    if (v.keyword === 'required') return `${where}: missing required property '${params.missingProperty}'`;
    if (v.keyword === 'enum')
      return `${where}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    return `${where}: ${v.message}`;
  });
  return `Invalid ${context}: ${parts.join('; ')}.`;
}

/** Maps a thrown value to an ApiError; 500 for anything not meant for the client. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const e = error as FastifyError;
  if (e?.validation) return new ApiError(400, validationDetail(e));
  switch (e?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'The request body is larger than this resource accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, `Content type '${e.message.split("'")[1] ?? ''}' is not supported here.`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'The Content-Length header does not match the body.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'The request body is empty but JSON was announced.');
  }
  if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiError(e.statusCode, e.message);
  }
  if (isDatabaseUnreachable(error)) {
    return new ApiError(503, 'The database cannot be reached right now; try again shortly.', {
      headers: { 'Retry-After': '5' },
    });
  }
  return new ApiError(500, 'Internal server error.');
}

export function send(request: FastifyRequest, reply: FastifyReply, error: ApiError) {
  const detail =
    error.status === 500
      ? `Internal server error; quote request id ${request.id} to the operator.`
      : undefined;
  const problem = error.toProblem();
  if (detail) problem.detail = detail;
  reply.headers(error.headers).code(error.status).type(PROBLEM_JSON);
  if (error.status === 503 && !error.headers['retry-after'] && !error.headers['Retry-After']) {
    reply.header('Retry-After', '5');
  }
  return reply.send(problem);
}

/** A resource planned but not served yet: 404 saying so (see routes/planned.ts). */
export interface Planned {
  path: string;
  what: string;
}

/** The first segments served under the planned path's API major, e.g. `api_versions, subscriptions`. */
function servedBeside(planned: string, urls: ReadonlySet<string>): { prefix: string; served: string[] } {
  const prefix = planned.split('/').slice(0, 3).join('/');
  const served = new Set<string>();
  for (const url of urls) {
    if (url.startsWith(`${prefix}/`)) served.add(url.slice(prefix.length + 1).split('/')[0]);
  }
  return { prefix, served: [...served].sort() };
}

export function registerErrorHandling(app: FastifyInstance, planned: readonly Planned[] = []): void {
  // A mirror of the route table, to tell "no such path" (404) from "not this method" (405).
  const mirror = FindMyWay({ ignoreTrailingSlash: false });
  const urls = new Set<string>();
  app.addHook('onRoute', (route) => {
    urls.add(route.url);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) {
      if (!mirror.hasRoute(m as HTTPMethod, route.url)) mirror.on(m as HTTPMethod, route.url, () => {});
    }
  });
  const plannedMirror = FindMyWay({ ignoreTrailingSlash: false });
  for (const p of planned) plannedMirror.on(METHODS, p.path, () => {}, p);

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    // 503 is a passing condition (draining, database unreachable) the client retries, not a fault here.
    if (apiError.status === 503) request.log.warn({ detail: apiError.detail }, 'request deferred');
    else if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ status: apiError.status, detail: apiError.detail }, 'request refused');
    return send(request, reply, apiError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allow = METHODS.filter((m) => mirror.find(m, path) !== null);
    if (allow.length > 0) {
      return send(
        request,
        reply,
        new ApiError(
          405,
          `Method ${request.method} is not supported on ${path}; allowed: ${allow.join(', ')}.`,
          {
            headers: { Allow: allow.join(', ') },
          },
        ),
      );
    }
    const later = plannedMirror.find(request.method as HTTPMethod, path)?.store as Planned | undefined;
    if (later) {
      const { prefix, served } = servedBeside(later.path, urls);
      return send(
        request,
        reply,
        new ApiError(
          404,
          `${path} is not implemented yet: ${later.what} will come in a later Bosun version. ` +
            `${prefix} serves ${served.length ? served.join(', ') : 'nothing'} today.`,
        ),
      );
    }
    return send(request, reply, new ApiError(404, `No resource at ${path}.`));
  });
}

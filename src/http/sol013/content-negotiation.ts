/**
 * Per-route content negotiation. Request bodies: 415 unless the media type is one the route
 * consumes — but an empty body is accepted whatever its Content-Type says (the Tacker client
 * sends a JSON Content-Type on bodiless GET/DELETE). Responses: 406 unless Accept admits one
 * of the route's media types. Errors are always application/problem+json.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../sol/problem.ts';
import { deeperThan } from './json-depth.ts';
import { charsetOf, mediaTypeOf, negotiate } from './media-type.ts';
import { JSON_TYPE, MERGE_PATCH, type RoutePolicy } from './route-policy.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The media type chosen for the response body by Accept negotiation. */
    negotiatedType?: string;
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return request.headers['transfer-encoding'] !== undefined;
}

/** Runs before any body parser (onRequest): only headers are needed. */
export function checkContentType(policy: RoutePolicy, request: FastifyRequest): void {
  const allowed = policy.consumes;
  if (!allowed || !hasBody(request)) return;
  const contentType = request.headers['content-type'];
  const type = mediaTypeOf(contentType);
  if (!type || !allowed.includes(type)) {
    const given = type ? `'${type}'` : 'no Content-Type';
    throw new ApiError(
      415,
      `Content type ${given} is not allowed for ${request.method} ${request.routeOptions.url}; use ${allowed.join(' or ')}.`,
    );
  }
  const charset = charsetOf(contentType);
  // Bodies are read as UTF-8 (JSON is UTF-8, RFC 8259): another charset would be misread, not converted.
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'us-ascii') {
    throw new ApiError(
      415,
      `Charset '${charset}' is not supported: send the body as UTF-8 (charset=utf-8 or none).`,
    );
  }
}

/** Picks the response media type or answers 406. */
export function checkAccept(policy: RoutePolicy, request: FastifyRequest): void {
  const produces = policy.produces;
  if (!produces) return;
  const chosen = negotiate(request.headers.accept, produces);
  if (!chosen) {
    throw new ApiError(
      406,
      `None of the media types in 'Accept: ${request.headers.accept}' can be produced by ${request.method} ${request.routeOptions.url}; available: ${produces.join(', ')}.`,
    );
  }
  request.negotiatedType = chosen;
}

/**
 * Body parsers: JSON (and merge-patch) with an empty body meaning "no body"; text/plain as a
 * string. Binary types are registered by the routes that stream them.
 */
export function registerBodyParsers(app: FastifyInstance, maxDepth: number): void {
  app.removeAllContentTypeParsers();
  const parseJson = (
    _req: FastifyRequest,
    body: string,
    done: (err: Error | null, value?: unknown) => void,
  ) => {
    if (body === '' || body.trim() === '') return done(null, undefined);
    if (deeperThan(body, maxDepth)) {
      return done(
        new ApiError(400, `The request body nests objects and arrays deeper than ${maxDepth} levels.`),
      );
    }
    try {
      done(null, JSON.parse(body));
    } catch (err) {
      done(
        new ApiError(
          400,
          `Malformed request body: the JSON could not be parsed (${(err as Error).message}).`,
        ),
      );
    }
  };
  app.addContentTypeParser([JSON_TYPE, MERGE_PATCH], { parseAs: 'string' }, parseJson);
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));
}

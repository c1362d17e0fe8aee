/**
 * Query parameter hygiene: a parameter the route does not declare, or one given twice, is a
 * 400 that names it — a typo in `filter` must not silently return everything.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from './problem.ts';

/** Alias the Tacker client sends by mistake (`vnflcm op list --exclude-fields`). */
const ALIASES: Record<string, string> = { 'exclude-fields': 'exclude_fields' };

export function checkQueryParams(request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return;
  const schema = request.routeOptions.schema?.querystring as
    | { properties?: Record<string, unknown> }
    | undefined;
  const declared = schema?.properties ?? {};
  for (const [name, value] of Object.entries(query)) {
    const alias = ALIASES[name];
    if (alias && alias in declared && !(alias in query)) {
      query[alias] = value;
      delete query[name];
    }
  }
  for (const [name, value] of Object.entries(query)) {
    if (!(name in declared)) {
      const known = Object.keys(declared);
      throw new ApiError(
        400,
        `Query parameter '${name}' is not supported by ${request.method} ${request.routeOptions.url}` +
          (known.length ? `; supported: ${known.join(', ')}.` : '; it takes no query parameters.'),
      );
    }
    if (Array.isArray(value)) throw new ApiError(400, `Query parameter '${name}' is given more than once.`);
  }
}

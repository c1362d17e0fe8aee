/**
 * Query parameter hygiene: a parameter the route does not declare, or one given twice, is a
 * 400 that names it — a typo in `filter` must not silently return everything.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../sol/problem.ts';
import type { RoutePolicy } from './route-policy.ts';

/** Alias the Tacker client sends by mistake (`vnflcm op list --exclude-fields`). */
const ALIASES: Record<string, string> = { 'exclude-fields': 'exclude_fields' };

export function checkQueryParams(policy: RoutePolicy, request: FastifyRequest): void {
  const query = request.query as Record<string, unknown> | undefined;
  if (!query) return;
  // Most requests have no query string: skip the walk.
  if (request.url.indexOf('?') < 0) return;
  const declared = policy.queryParams;
  if (!declared) return;
  for (const [name, value] of Object.entries(query)) {
    const alias = ALIASES[name];
    if (alias && declared.includes(alias) && !(alias in query)) {
      query[alias] = value;
      delete query[name];
    }
  }
  for (const [name, value] of Object.entries(query)) {
    if (!declared.includes(name)) {
      throw new ApiError(
        400,
        `Query parameter '${name}' is not supported by ${request.method} ${policy.route}` +
          (declared.length ? `; supported: ${declared.join(', ')}.` : '; it takes no query parameters.'),
      );
    }
    if (Array.isArray(value)) throw new ApiError(400, `Query parameter '${name}' is given more than once.`);
  }
}

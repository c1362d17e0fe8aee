/** Absolute URLs for Location and Link headers: server.publicUrl when set, else the request's host. */
import type { FastifyRequest } from 'fastify';

export function baseUrl(request: FastifyRequest): string {
  const configured = request.server.bosun.config.server.publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

/** The absolute URL of `path` (which starts with /). */
export function absoluteUrl(request: FastifyRequest, path: string): string {
  return baseUrl(request) + path;
}

/**
 * The request's own URL with `name` set to `value`, every other query parameter kept (the Tacker
 * client re-sends only the query string of a next link).
 */
export function withQueryParam(request: FastifyRequest, name: string, value: string): string {
  const [path, query = ''] = request.url.split('?', 2);
  const params = new URLSearchParams(query);
  params.set(name, value);
  return `${baseUrl(request)}${path}?${params.toString()}`;
}

/**
 * SOL013 §4.2.2 `Version` header: required on SOL v3.x APIs, validated when present on v2.6.1
 * ones, and echoed on every response of a versioned API (errors included).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../sol/problem.ts';
import type { RoutePolicy } from './route-policy.ts';

const VERSION = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

/** Strips the tolerated `-impl:<suffix>` and checks MAJOR.MINOR.PATCH; undefined when absent. */
export function parseVersionHeader(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new ApiError(400, "The 'Version' header must be given once.");
  const version = raw.trim().replace(/-impl:.*$/, '');
  if (!VERSION.test(version)) {
    throw new ApiError(
      400,
      `The 'Version' header '${raw}' is not a valid version: expected MAJOR.MINOR.PATCH (e.g. 2.0.0), optionally followed by -impl:<text>.`,
    );
  }
  return version;
}

/** Every answer of a versioned API, errors included, carries Version: set it first. */
export function setDefaultVersion(policy: RoutePolicy, reply: FastifyReply): void {
  if (policy.defaultVersion) reply.header('Version', policy.defaultVersion);
}

export function checkVersionHeader(policy: RoutePolicy, request: FastifyRequest, reply: FastifyReply): void {
  if (!policy.majors) return;
  const version = parseVersionHeader(request.headers.version);
  const supported = policy.supportedVersions;
  if (version === undefined) {
    if (policy.versionRule === 'required') {
      throw new ApiError(
        400,
        `The 'Version' header is missing. This API requires it; supported versions: ${supported.join(', ')}.`,
      );
    }
    return;
  }
  const known = supported.includes(version);
  if (!known && policy.versionRule !== 'any') {
    throw new ApiError(
      406,
      `Version ${version} is not supported by ${request.routeOptions.url}; supported: ${supported.join(', ')}.`,
    );
  }
  if (known) reply.header('Version', version);
}

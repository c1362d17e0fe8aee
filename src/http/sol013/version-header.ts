/**
 * SOL013 §4.2.2 `Version` header: required on SOL v3.x APIs, validated when present on v2.6.1
 * ones, and echoed on every response of a versioned API (errors included).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_REGISTRY, type ApiMajor, currentVersion, findMajor, majorsOf } from './api-versions.ts';
import { ApiError } from './problem.ts';

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

function responseVersion(majors: ApiMajor[], requested: string | undefined): string {
  if (requested && majors.some((m) => m.versions.includes(requested))) return requested;
  return majors.map(currentVersion).sort(compareVersions).at(-1)!;
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}

function majorsOfRoute(request: FastifyRequest): ApiMajor[] | undefined {
  const declared = request.routeOptions.config.sol013;
  if (!declared?.api) return undefined;
  return declared.major ? [findMajor(declared.api, declared.major)!] : majorsOf(declared.api);
}

/** First onRequest hook: every answer of a versioned API, errors included, carries Version. */
export async function setDefaultVersion(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const majors = majorsOfRoute(request);
  if (majors) reply.header('Version', responseVersion(majors, undefined));
}

/** onRequest hook: runs for every route that declares an API. */
export async function checkVersionHeader(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const majors = majorsOfRoute(request);
  const declared = request.routeOptions.config.sol013;
  if (!majors || !declared?.api) return;
  const rule = declared.versionHeader ?? majors[0].versionHeader;
  const raw = request.headers.version;
  const version = parseVersionHeader(raw);
  if (version === undefined) {
    if (rule === 'required') {
      throw new ApiError(
        400,
        `The 'Version' header is missing. This API requires it; supported versions: ${majors.flatMap((m) => m.versions).join(', ')}.`,
      );
    }
    return;
  }
  if (rule !== 'any' && !majors.some((m) => m.versions.includes(version))) {
    throw new ApiError(
      406,
      `Version ${version} is not supported by /${declared.api}${declared.major ? '/' + declared.major : ''}; supported: ${majors.flatMap((m) => m.versions).join(', ')}.`,
    );
  }
  reply.header('Version', responseVersion(majors, version));
}

export const ALL_VERSIONS = API_REGISTRY.flatMap((m) => m.versions);
